package dev.dht.operator.cluster;

import java.util.Optional;

/**
 * Which operator defaults a cluster's nodes get: the operator's current ones for a new cluster,
 * under {@code operatorUpgrades: Automatic}, or once the cluster is annotated {@value
 * #ALLOW_ANNOTATION}=once; else the ones it runs (recorded in its status), so that a new operator
 * version never restarts nodes by itself. Pure.
 */
final class UpgradeGate {
  static final String ALLOW_ANNOTATION = "dht.dev/allow-restart";

  private UpgradeGate() {}

  /** The defaults to build the nodes from. */
  static OperatorDefaults accepted(DhtCluster cluster, OperatorDefaults current) {
    var recorded =
        Optional.ofNullable(cluster.getStatus()).map(DhtClusterStatus::getOperatorDefaults);
    boolean automatic =
        cluster.getSpec() != null
            && cluster.getSpec().getOperatorUpgrades() == DhtClusterSpec.OperatorUpgrades.Automatic;
    return recorded.isEmpty() || automatic || allowedOnce(cluster) ? current : recorded.get();
  }

  /** Whether the cluster carries the one-time permission (consumed once it is taken). */
  static boolean allowedOnce(DhtCluster cluster) {
    var annotations = cluster.getMetadata().getAnnotations();
    return annotations != null && "once".equalsIgnoreCase(annotations.get(ALLOW_ANNOTATION));
  }
}
