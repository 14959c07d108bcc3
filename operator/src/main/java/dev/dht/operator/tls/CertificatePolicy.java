package dev.dht.operator.tls;

import java.time.Duration;

/**
 * Lifetimes of the CA and the node certificate, how long before their end they are renewed, and how
 * long each step of a rotation waits for the kubelet to update the Secrets mounted in the pods.
 */
public record CertificatePolicy(
    Duration caLifetime,
    Duration caRenewBefore,
    Duration certificateLifetime,
    Duration certificateRenewBefore,
    Duration propagationDelay) {

  /**
   * The kubelet refreshes a mounted Secret on its periodic sync plus the TTL of its Secret cache,
   * by default within about one to two minutes of a change; three minutes leave a margin. Nodes
   * re-read the files, so that is all a step waits for.
   */
  public static final Duration PROPAGATION_DELAY = Duration.ofMinutes(3);

  /** A CA for a year, renewed a month before; node certificates for 90 days, likewise. */
  public static final CertificatePolicy DEFAULT =
      new CertificatePolicy(
          Duration.ofDays(365),
          Duration.ofDays(30),
          Duration.ofDays(90),
          Duration.ofDays(30),
          PROPAGATION_DELAY);

  public CertificatePolicy {
    // renewing at least as early as a lifetime would renew every certificate at once, forever
    if (caRenewBefore.compareTo(caLifetime) >= 0
        || certificateRenewBefore.compareTo(certificateLifetime) >= 0) {
      throw new IllegalArgumentException("a certificate must be renewed within its lifetime");
    }
    // a node certificate ends with its CA at the latest: renewed later than the CA, it would be
    // renewed again and again, each one ending when the CA does
    if (certificateRenewBefore.compareTo(caRenewBefore) > 0) {
      throw new IllegalArgumentException("the node certificate must not be renewed before the CA");
    }
  }

  /** The same with another propagation delay (tests do not wait three minutes per step). */
  public CertificatePolicy withPropagationDelay(Duration delay) {
    return new CertificatePolicy(
        caLifetime, caRenewBefore, certificateLifetime, certificateRenewBefore, delay);
  }
}
