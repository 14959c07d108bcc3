package dev.dht.operator.cluster;

import dev.dht.operator.kube.Conditions;
import dev.dht.operator.tls.NodeDnsNames;
import dev.dht.operator.tls.TlsCluster;
import dev.dht.operator.tls.TlsReport;
import dev.dht.operator.tls.TlsSecrets;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A DhtCluster's TLS certificates (package {@code tls}): what it needs to know of the cluster, and
 * how its report goes into the status.
 */
final class ClusterTls {
  private ClusterTls() {}

  /** The Secrets brought up to date; {@link TlsReport#OFF} when the cluster turned TLS off. */
  static TlsReport reconcile(
      TlsSecrets secrets,
      KubernetesClient client,
      DhtCluster cluster,
      ClusterModel model,
      Instant now) {
    if (!model.tls()) {
      return TlsReport.OFF;
    }
    var target =
        new TlsCluster(
            cluster,
            // not model.labels(): managed-by would put them into the Secret dependent's informer,
            // which expects one Secret per cluster (TlsSecrets)
            model.selectorLabels(),
            NodeDnsNames.of(model.peerServiceName(), model.clientServiceName(), model.namespace()));
    return secrets.reconcile(client, target, now);
  }

  /**
   * status.tls and the {@value TlsReport#CONDITION} condition from this reconciliation's report;
   * when none was made (paused, or the reconciliation failed), as the status had them.
   */
  static void report(
      DhtClusterStatus status, DhtCluster cluster, long generation, TlsReport tls, Instant now) {
    var previous = Optional.ofNullable(cluster.getStatus());
    List<Condition> before = previous.map(DhtClusterStatus::getConditions).orElse(List.of());
    Optional<Condition> condition;
    if (tls == null) {
      status.setTls(previous.map(DhtClusterStatus::getTls).orElse(null));
      condition = Conditions.find(before, TlsReport.CONDITION);
    } else {
      status.setTls(tls.status());
      condition = tls.condition(before, generation, now);
    }
    condition.ifPresent(c -> {
      var conditions = new ArrayList<>(status.getConditions());
      conditions.add(c);
      status.setConditions(conditions);
    });
  }

  /**
   * When to look again: after {@code period}, or sooner when a step of a CA rotation or a renewal
   * is due before (at least a second later, so that a step due now is not polled in a loop).
   */
  static Duration lookAgainAfter(Duration period, TlsReport tls, Instant now) {
    if (tls == null || tls.nextCheck() == null) {
      return period;
    }
    var due = Duration.between(now, tls.nextCheck());
    var soonest = Duration.ofSeconds(1);
    return due.compareTo(period) >= 0 ? period : due.compareTo(soonest) < 0 ? soonest : due;
  }
}
