package dev.dht.operator.cluster;

import dev.dht.operator.rolling.PodState;
import dev.dht.operator.scaling.NodeView;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The node pods and their nodes as one reconciliation saw them: each pod by ordinal, what its node
 * reported on its admin endpoint, the image its container runs, the hash of the ConfigMap files it
 * was last nudged to re-read, and the zone of the Kubernetes node it runs on ("" for a node without
 * the zone label; absent: not scheduled, or the node could not be read).
 */
record Seen(
    List<PodState> pods,
    Map<Integer, NodeView> nodes,
    Map<Integer, String> images,
    Map<Integer, String> files,
    Map<Integer, String> zones) {
  static final Seen NOTHING = new Seen(List.of(), Map.of(), Map.of(), Map.of());

  Seen(
      List<PodState> pods,
      Map<Integer, NodeView> nodes,
      Map<Integer, String> images,
      Map<Integer, String> files) {
    this(pods, nodes, images, files, Map.of());
  }

  boolean any() {
    return !pods.isEmpty();
  }

  Optional<PodState> pod(int ordinal) {
    return pods.stream().filter(p -> p.ordinal() == ordinal).findFirst();
  }

  NodeView node(int ordinal) {
    return nodes.getOrDefault(ordinal, NodeView.unreachable(ordinal, false));
  }
}
