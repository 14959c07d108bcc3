package dev.dht.operator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.operator.tls.TlsReport;
import dev.dht.operator.tls.TlsSpec;
import dev.dht.operator.tls.TlsStatus;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How a cluster's TLS report goes into its status and its next reconciliation. */
class ClusterTlsTest {
  private static final Instant NOW = Instant.parse("2026-06-01T12:00:00Z");
  private static final Duration PERIOD = Duration.ofSeconds(30);

  @Test
  void aRotationStepDueSoonerBringsTheNextReconciliationForward() {
    assertThat(ClusterTls.lookAgainAfter(PERIOD, null, NOW)).isEqualTo(PERIOD);
    assertThat(ClusterTls.lookAgainAfter(PERIOD, TlsReport.OFF, NOW)).isEqualTo(PERIOD);
    assertThat(ClusterTls.lookAgainAfter(PERIOD, due(NOW.plusSeconds(12)), NOW))
        .isEqualTo(Duration.ofSeconds(12));
    assertThat(ClusterTls.lookAgainAfter(PERIOD, due(NOW.plus(Duration.ofDays(60))), NOW))
        .isEqualTo(PERIOD);
    assertThat(ClusterTls.lookAgainAfter(PERIOD, due(NOW.minusSeconds(5)), NOW))
        .as("overdue: soon, not in a loop")
        .isEqualTo(Duration.ofSeconds(1));
  }

  @Test
  void tlsIsOnUnlessTurnedOff() {
    var cluster = Clusters.cluster(3);
    assertThat(Clusters.model(cluster).tls()).isTrue();
    cluster.getSpec().setTls(null);
    assertThat(Clusters.model(cluster).tls()).isTrue();
    cluster.getSpec().setTls(TlsSpec.builder().enabled(null).build());
    assertThat(Clusters.model(cluster).tls()).isTrue();
    cluster.getSpec().setTls(TlsSpec.builder().enabled(false).build());
    assertThat(Clusters.model(cluster).tls()).isFalse();
    assertThat(Clusters.model(cluster).tlsSecrets().nodeTls()).isEqualTo("demo-node-tls");
  }

  @Test
  void whenTheCertificatesWereNotLookedAtTheStatusKeepsWhatItHad() {
    var cluster = Clusters.cluster(3);
    var before = new DhtClusterStatus();
    before.setTls(TlsStatus.builder().caFingerprint("AA").build());
    var condition =
        new ConditionBuilder()
            .withType(TlsReport.CONDITION)
            .withStatus("True")
            .withReason("CertificatesIssued")
            .build();
    before.setConditions(List.of(condition));
    cluster.setStatus(before);

    var paused = statusWithOtherConditions();
    ClusterTls.report(paused, cluster, 1, null, NOW);
    assertThat(paused.getTls().getCaFingerprint()).isEqualTo("AA");
    assertThat(paused.getConditions())
        .extracting("type")
        .containsExactly("Ready", "CertificatesReady");

    var off = statusWithOtherConditions();
    ClusterTls.report(off, cluster, 1, TlsReport.OFF, NOW);
    assertThat(off.getTls()).isNull();
    assertThat(off.getConditions()).extracting("type").containsExactly("Ready");
  }

  private static DhtClusterStatus statusWithOtherConditions() {
    var status = new DhtClusterStatus();
    status.setConditions(
        List.of(new ConditionBuilder().withType("Ready").withStatus("False").build()));
    return status;
  }

  private static TlsReport due(Instant when) {
    return new TlsReport(new TlsStatus(), null, when);
  }
}
