package dev.dht.operator.kube;

import io.fabric8.kubernetes.api.model.Secret;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

/** Text in and out of a Secret's base64 data. */
public final class SecretTexts {
  private SecretTexts() {}

  /** The value of {@code key} as text, null when the Secret or the key is missing. */
  public static String text(Secret secret, String key) {
    if (secret == null || secret.getData() == null || secret.getData().get(key) == null) {
      return null;
    }
    try {
      return new String(
          Base64.getDecoder().decode(secret.getData().get(key)), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /** The values, base64-encoded as a Secret's data holds them (order kept). */
  public static Map<String, String> encode(Map<String, String> texts) {
    var data = new LinkedHashMap<String, String>();
    texts.forEach((key, text) ->
        data.put(key, Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8))));
    return data;
  }
}
