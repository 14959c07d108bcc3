package dev.dht.operator.loadtest.job;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Why a generator pod is not running yet, when Kubernetes says so: not scheduled (e.g. "0/1 nodes
 * are available: 1 Insufficient cpu"), or its container waiting on something other than its normal
 * start (an image that cannot be pulled, a bad configuration). Pure.
 */
final class PodWait {
  private static final Set<String> STARTING = Set.of("ContainerCreating", "PodInitializing");

  private PodWait() {}

  /** One line per pod that waits on something, in the order of {@code pods}. */
  static List<String> reasons(List<Pod> pods) {
    return pods.stream().map(PodWait::reason).flatMap(Optional::stream).toList();
  }

  static Optional<String> reason(Pod pod) {
    var status = pod.getStatus();
    String name = pod.getMetadata().getName();
    if (status == null || !"Pending".equals(status.getPhase())) {
      return Optional.empty();
    }
    var unscheduled =
        status.getConditions() == null
            ? Optional.<String>empty()
            : status.getConditions().stream()
                .filter(c -> "PodScheduled".equals(c.getType()) && "False".equals(c.getStatus()))
                .map(c -> name + " not scheduled: " + orEmpty(c.getMessage()).strip())
                .findFirst();
    if (unscheduled.isPresent()) {
      return unscheduled;
    }
    return status.getContainerStatuses() == null
        ? Optional.empty()
        : status.getContainerStatuses().stream()
            .map(ContainerStatus::getState)
            .filter(s -> s != null && s.getWaiting() != null)
            .map(s -> s.getWaiting())
            .filter(w -> w.getReason() != null && !STARTING.contains(w.getReason()))
            .map(w -> name + " " + w.getReason() + ": " + orEmpty(w.getMessage()).strip())
            .findFirst();
  }

  private static String orEmpty(String s) {
    return s == null ? "" : s;
  }
}
