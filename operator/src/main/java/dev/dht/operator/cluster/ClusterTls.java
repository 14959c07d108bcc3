package dev.dht.operator.cluster;

import dev.dht.operator.kube.Conditions;
import dev.dht.operator.tls.CertManagerSecrets;
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

  /**
   * The Secrets brought up to date, by the operator's CA or by cert-manager (spec.tls.issuerRef);
   * {@link TlsReport#OFF} when the cluster turned TLS off.
   */
  static TlsReport reconcile(
      TlsSecrets secrets,
      CertManagerSecrets certManager,
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
    var issuer =
        cluster.getSpec().getTls() == null ? null : cluster.getSpec().getTls().getIssuerRef();
    return issuer == null
        ? secrets.reconcile(client, target, now)
        : certManager.reconcile(client, target, issuer, now);
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
    var conditions = new ArrayList<>(status.getConditions());
    condition.ifPresent(conditions::add);
    transportRefused(cluster, status, before, generation, now).ifPresent(conditions::add);
    status.setConditions(conditions);
  }

  /**
   * The {@value #TRANSPORT_REFUSED} condition, while the spec asks for TLS on a plain cluster or
   * the other way round (the transport is kept from the cluster's creation: {@link Transport}).
   */
  private static Optional<Condition> transportRefused(
      DhtCluster cluster,
      DhtClusterStatus status,
      List<Condition> before,
      long generation,
      Instant now) {
    if (status.getTransport() == null || cluster.getSpec() == null) {
      return Optional.empty();
    }
    String refusal =
        Transport.refusal(ClusterModel.wantsTls(cluster.getSpec()), status.getTransport());
    return refusal == null
        ? Optional.empty()
        : Optional.of(
            Conditions.next(
                before, TRANSPORT_REFUSED, true, "TransportKept", refusal, generation, now));
  }

  /** Present while spec.tls asks for another transport than the one the cluster was made with. */
  static final String TRANSPORT_REFUSED = "TransportChangeRefused";

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
