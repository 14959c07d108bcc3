package dev.dht.operator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.operator.scaling.Membership;
import org.junit.jupiter.api.Test;

class TransportTest {
  @Test
  void aNewClusterGetsWhatItsSpecAsksFor() {
    assertThat(Transport.decide(true, null)).isEqualTo(Transport.Tls);
    assertThat(Transport.decide(false, null)).isEqualTo(Transport.Plain);
    assertThat(Transport.decide(true, new DhtClusterStatus()))
        .as("a status without a membership: not yet created")
        .isEqualTo(Transport.Tls);
  }

  @Test
  void theRecordedTransportIsKeptWhateverTheSpecSaysLater() {
    var status = new DhtClusterStatus();
    status.setTransport(Transport.Plain);
    assertThat(Transport.decide(true, status)).isEqualTo(Transport.Plain);
    assertThat(Transport.refusal(true, Transport.Plain))
        .contains("spec.tls.enabled is true but the cluster runs plain HTTP");
    assertThat(Transport.refusal(false, Transport.Plain)).isNull();
  }

  @Test
  void aClusterOfAnOperatorBeforeTlsStaysOnPlainHttpOnOnePort() {
    var status = new DhtClusterStatus();
    status.setMembership(
        Membership.stable(1, 3, new dev.dht.contract.MembersFile.Replication(2, 3)));
    Transport legacy = Transport.decide(true, status);
    assertThat(legacy).isEqualTo(Transport.Plain);
    assertThat(legacy.ports().shared()).isTrue();
    assertThat(Transport.Tls.ports()).isEqualTo(NodePorts.SPLIT);
  }
}
