package dev.dht.node.tls;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.pki.CertificateAuthority;
import dev.dht.pki.LeafRequest;
import dev.dht.pki.Validity;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class PeerNamesTest {
  private static final Validity VALID = Validity.of(Instant.now(), Duration.ofDays(1));
  private static final CertificateAuthority CA = CertificateAuthority.generate("CA", VALID);

  @Test
  void aPeerCarriesOneOfTheNodesWildcardsNotMerelyLocalhost() {
    var names =
        PeerNames.of(leaf(List.of("*.a-peers.ns.svc", "*.a-peers", "a.ns.svc", "localhost")));
    assertThat(names.names()).containsExactlyInAnyOrder("*.a-peers.ns.svc", "*.a-peers");
    assertThat(names.carriedBy(leaf(List.of("*.a-peers.ns.svc", "localhost")))).isTrue();
    assertThat(names.carriedBy(leaf(List.of("*.b-peers.ns.svc", "localhost")))).isFalse();
    assertThat(names.carriedBy(leaf(List.of("*.A-PEERS.NS.SVC")))).as("DNS ignores case").isTrue();
  }

  @Test
  void withoutWildcardsEveryNameCounts() {
    var names = PeerNames.of(leaf(List.of("localhost")));
    assertThat(names.carriedBy(leaf(List.of("localhost")))).isTrue();
    assertThat(names.carriedBy(leaf(List.of("elsewhere")))).isFalse();
  }

  private static java.security.cert.X509Certificate leaf(List<String> names) {
    return CA.issue(new LeafRequest("node", names, VALID)).certificate();
  }
}
