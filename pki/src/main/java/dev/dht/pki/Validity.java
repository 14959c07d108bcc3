package dev.dht.pki;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/** When a certificate is valid: from notBefore to notAfter, both included, in whole seconds. */
public record Validity(Instant notBefore, Instant notAfter) {
  public Validity {
    // X.509 times have a resolution of one second: truncating here makes what is asked what is read
    notBefore = notBefore.truncatedTo(ChronoUnit.SECONDS);
    notAfter = notAfter.truncatedTo(ChronoUnit.SECONDS);
    if (!notAfter.isAfter(notBefore)) {
      throw new IllegalArgumentException(
          "notAfter " + notAfter + " is not after notBefore " + notBefore);
    }
  }

  /** From {@code start} for {@code lifetime}. */
  public static Validity of(Instant start, Duration lifetime) {
    return new Validity(start, start.plus(lifetime));
  }

  /** The same, ending no later than {@code latest} (a leaf need not outlive its CA). */
  public Validity endingNoLaterThan(Instant latest) {
    return latest.isBefore(notAfter) ? new Validity(notBefore, latest) : this;
  }
}
