package dev.dht.operator.cluster;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.awaitility.Awaitility;

/**
 * A test cluster on the apiserver as the operator tests look at it: its node pods (which are Ready,
 * their uids) and its DhtCluster (edited against the operator's concurrent status writes).
 */
final class ClusterPods {
  private final KubernetesClient client;
  private final String ns;
  private final String name;
  private final int nodes;

  ClusterPods(KubernetesClient client, String ns, String name, int nodes) {
    this.client = client;
    this.ns = ns;
    this.name = name;
    this.nodes = nodes;
  }

  /** The cluster's node pods (not another workload's that carries their labels). */
  List<Pod> pods() {
    return client
        .pods()
        .inNamespace(ns)
        .withLabel("app.kubernetes.io/instance", name)
        .list()
        .getItems()
        .stream()
        .filter(p -> p.getMetadata().getName().matches(name + "-\\d+"))
        .toList();
  }

  /** Pod name → uid. */
  Map<String, String> uids() {
    Map<String, String> uids = new HashMap<>();
    pods().forEach(p -> uids.put(p.getMetadata().getName(), p.getMetadata().getUid()));
    return uids;
  }

  /** A node whose pod is Ready and not being deleted, as a Service would pick one; -1 if none. */
  int readyNode(int seed) {
    List<Pod> pods;
    try {
      pods = pods();
    } catch (RuntimeException e) {
      return -1;
    }
    for (int k = 0; k < nodes; k++) {
      int i = Math.floorMod(seed + k, nodes);
      if (pods.stream()
          .anyMatch(p ->
              p.getMetadata().getName().equals(name + "-" + i)
                  && StandInKubelet.ready(p)
                  && p.getMetadata().getDeletionTimestamp() == null)) {
        return i;
      }
    }
    return -1;
  }

  DhtCluster cluster() {
    return client.resources(DhtCluster.class).inNamespace(ns).withName(name).get();
  }

  /** Edits the cluster, again on a conflict with the operator's status writes. */
  void edit(UnaryOperator<DhtCluster> change) {
    Awaitility.await()
        .atMost(Duration.ofSeconds(10))
        .ignoreExceptions()
        .until(() -> {
          client.resources(DhtCluster.class).inNamespace(ns).withName(name).edit(change);
          return true;
        });
  }
}
