package dev.dht.pki;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/** A CA and leaves as the operator makes them, for the tests. */
final class TestPki {
  static final Instant NOW = Instant.parse("2026-06-01T12:00:00Z");
  static final List<String> NODE_NAMES =
      List.of(
          "*.demo-peers.ns.svc",
          "*.demo-peers.ns.svc.cluster.local",
          "*.demo-peers.ns",
          "*.demo-peers",
          "demo",
          "demo.ns",
          "demo.ns.svc",
          "demo.ns.svc.cluster.local",
          "localhost");

  private TestPki() {}

  static CertificateAuthority ca(String name) {
    return CertificateAuthority.generate(name, Validity.of(NOW, Duration.ofDays(365)));
  }

  static IssuedCertificate leaf(CertificateAuthority ca) {
    return ca.issue(
        new LeafRequest("demo.ns node", NODE_NAMES, Validity.of(NOW, Duration.ofDays(90))));
  }
}
