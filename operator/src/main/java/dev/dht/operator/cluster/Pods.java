package dev.dht.operator.cluster;

import dev.dht.operator.rolling.PodRevision;
import dev.dht.operator.rolling.PodState;
import io.fabric8.kubernetes.api.model.Pod;

/** What the roller and the status read from a node pod. */
final class Pods {
  private Pods() {}

  static PodState state(int ordinal, Pod pod) {
    return new PodState(
        ordinal,
        pod.getMetadata().getName(),
        true,
        ready(pod),
        pod.getMetadata().getDeletionTimestamp() != null,
        revision(pod));
  }

  /** The revision the pod was created from; null if it carries none. */
  static PodRevision revision(Pod pod) {
    var annotations = pod.getMetadata().getAnnotations();
    if (annotations == null) {
      return null;
    }
    if (annotations.containsKey(ClusterModel.REVISION_ANNOTATION)) {
      return PodRevision.parse(annotations.get(ClusterModel.REVISION_ANNOTATION));
    }
    String older = annotations.get(ClusterModel.OLDER_CONFIG_HASH_ANNOTATION);
    return older == null ? null : PodRevision.ofOlderOperator(older);
  }

  static boolean ready(Pod pod) {
    return pod.getStatus() != null
        && pod.getStatus().getConditions() != null
        && pod.getStatus().getConditions().stream()
            .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
  }

  /** The image the node container runs as the kubelet reports it, else the one asked for. */
  static String image(Pod pod) {
    if (pod.getStatus() != null && pod.getStatus().getContainerStatuses() != null) {
      for (var container : pod.getStatus().getContainerStatuses()) {
        if ("node".equals(container.getName()) && container.getImage() != null) {
          return container.getImage();
        }
      }
    }
    return pod.getSpec() == null
        ? null
        : pod.getSpec().getContainers().stream()
            .filter(c -> "node".equals(c.getName()))
            .map(c -> c.getImage())
            .findFirst()
            .orElse(null);
  }
}
