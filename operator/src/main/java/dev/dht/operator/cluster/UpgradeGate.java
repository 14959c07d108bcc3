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

  /**
   * Whether the one-time permission has been taken: the cluster still carries it and its status
   * records {@code current} as the defaults its nodes get. Then it may be removed.
   */
  static boolean taken(DhtCluster cluster, OperatorDefaults current) {
    return allowedOnce(cluster)
        && cluster.getStatus() != null
        && current.equals(cluster.getStatus().getOperatorDefaults());
  }

  /** Whether the cluster carries the one-time permission (removed once it is taken). */
  static boolean allowedOnce(DhtCluster cluster) {
    var annotations = cluster.getMetadata().getAnnotations();
    return annotations != null && "once".equalsIgnoreCase(annotations.get(ALLOW_ANNOTATION));
  }
}
