package dev.dht.operator.tls;

import io.fabric8.kubernetes.api.model.Secret;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;

/**
 * The instants kept in a Secret's annotations (its text: {@link
 * dev.dht.operator.kube.SecretTexts}).
 */
final class SecretData {
  private SecretData() {}

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
