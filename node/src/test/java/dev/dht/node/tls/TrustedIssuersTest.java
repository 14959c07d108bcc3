package dev.dht.node.tls;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.pki.CertificateAuthority;
import dev.dht.pki.LeafRequest;
import dev.dht.pki.Validity;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class TrustedIssuersTest {
  private static final Validity VALID = Validity.of(Instant.now(), Duration.ofDays(1));

  @Test
  void aCertificateIsVouchedForByTheCaThatSignedItNotByAnotherOfTheSameName() {
    var ca = CertificateAuthority.generate("dht CA", VALID);
    var sameName = CertificateAuthority.generate("dht CA", VALID);
    var other = CertificateAuthority.generate("other CA", VALID);
    var leaf = ca.issue(new LeafRequest("node", List.of("localhost"), VALID)).certificate();

    assertThat(TrustedIssuers.signedByAny(leaf, List.of(other.certificate(), ca.certificate())))
        .isTrue();
    assertThat(TrustedIssuers.signedByAny(leaf, List.of(sameName.certificate()))).isFalse();
    assertThat(TrustedIssuers.signedByAny(leaf, List.of(other.certificate()))).isFalse();
    assertThat(TrustedIssuers.signedByAny(leaf, List.of())).isFalse();
  }

  @Test
  void aChainIsVouchedForWhenTheBundleSignedOneOfItsCertificates() {
    var root = CertificateAuthority.generate("root", VALID);
    // an intermediate: a CA certificate the root signed (pki issues leaves only, so by hand here)
    var intermediate = CertificateAuthority.generate("intermediate", VALID);
    var leaf =
        intermediate.issue(new LeafRequest("node", List.of("localhost"), VALID)).certificate();
    var other = CertificateAuthority.generate("other", VALID);
    assertThat(
            TrustedIssuers.vouchFor(
                List.of(leaf, intermediate.certificate()), List.of(intermediate.certificate())))
        .as("the bundle holds the intermediate")
        .isTrue();
    assertThat(TrustedIssuers.vouchFor(List.of(leaf), List.of(intermediate.certificate())))
        .isTrue();
    assertThat(
            TrustedIssuers.vouchFor(
                List.of(leaf, intermediate.certificate()),
                List.of(other.certificate(), root.certificate())))
        .as("nothing of the chain is the bundle's")
        .isFalse();
  }
}
