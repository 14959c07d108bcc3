package dev.dht.operator.tls;

import io.fabric8.kubernetes.api.model.Secret;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

/** Text in and out of a Secret's base64 data, and the instants kept in its annotations. */
final class SecretData {
  private SecretData() {}

  /** The value of {@code key} as text, null when the Secret or the key is missing. */
  static String text(Secret secret, String key) {
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
  static Map<String, String> encode(Map<String, String> texts) {
    var data = new LinkedHashMap<String, String>();
    texts.forEach((key, text) ->
        data.put(key, Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8))));
    return data;
  }

  /**
   * The instant in an annotation; {@link Instant#EPOCH} ("long ago") when it is missing or not RFC
   * 3339. The operator writes it with the content it dates, so it is missing only after a hand
   * edit; waiting on a guess would wait forever.
   */
  static Instant instant(Secret secret, String annotation) {
    var annotations = secret == null ? null : secret.getMetadata().getAnnotations();
    String value = annotations == null ? null : annotations.get(annotation);
    if (value == null) {
      return Instant.EPOCH;
    }
    try {
      return Instant.parse(value);
    } catch (DateTimeParseException e) {
      return Instant.EPOCH;
    }
  }

  static String format(Instant instant) {
    return instant.truncatedTo(ChronoUnit.SECONDS).toString();
  }

  static String annotation(Secret secret, String annotation) {
    var annotations = secret == null ? null : secret.getMetadata().getAnnotations();
    return annotations == null ? null : annotations.get(annotation);
  }
}
