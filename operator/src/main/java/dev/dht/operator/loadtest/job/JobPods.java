package dev.dht.operator.loadtest.job;

import dev.dht.operator.kube.Owners;
import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads what a finished load generator pod leaves behind: its container's terminated state (the
 * summary is its message) and its log (the wrk2 report). Read once, when the Job has finished, so
 * no pod informer is kept for this.
 */
public final class JobPods {
  private static final Logger LOG = LoggerFactory.getLogger(JobPods.class);

  /** The report and the failure tail live at the end of the log; this bounds the read. */
  static final int LOG_TAIL_LINES = 2000;

  /**
   * And this bounds it in bytes, since a line can be of any length: the wrk2 report with its full
   * percentile spectrum is a few KiB, 2000 lines of progress about 200 KiB; the report keeps at
   * most 256 KiB of it anyway.
   */
  static final int LOG_TAIL_BYTES = 1024 * 1024;

  private final KubernetesClient client;

  public JobPods(KubernetesClient client) {
    this.client = client;
  }

  /**
   * The pods of {@code job}: those it controls (owner reference with its UID). The Job controller's
   * label narrows the list, but any pod can carry a label: one a tenant made with the Job's labels
   * is no generator of the test.
   */
  static List<Pod> ofJob(KubernetesClient client, Job job) {
    return client
        .pods()
        .inNamespace(job.getMetadata().getNamespace())
        .withLabel("batch.kubernetes.io/controller-uid", job.getMetadata().getUid())
        .list()
        .getItems()
        .stream()
        .filter(pod -> Owners.isControlledBy(pod, job))
        .toList();
  }

  /**
   * The Job's pod ({@link #ofJob}): a failed one first (of a parallel test's generators, the one
   * that says why), else the newest.
   */
  public Optional<Pod> podOf(Job job) {
    return ofJob(client, job).stream()
        .max(
            Comparator.comparing(
                    (Pod p) -> p.getStatus() != null && "Failed".equals(p.getStatus().getPhase()))
                .thenComparing(p -> p.getMetadata().getCreationTimestamp()));
  }

  public static Optional<ContainerStateTerminated> terminated(Optional<Pod> pod) {
    return pod.map(Pod::getStatus)
        .flatMap(s ->
            s.getContainerStatuses() == null
                ? Optional.empty()
                : s.getContainerStatuses().stream()
                    .filter(c -> LoadTestModel.CONTAINER.equals(c.getName()))
                    .findFirst())
        .map(ContainerStatus::getState)
        .map(state -> state.getTerminated());
  }

  /** The end of the load generator's log, or empty (no kubelet, node gone, log rotated away). */
  public Optional<String> log(Pod pod) {
    try {
      String log =
          client
              .pods()
              .inNamespace(pod.getMetadata().getNamespace())
              .withName(pod.getMetadata().getName())
              .inContainer(LoadTestModel.CONTAINER)
              .withReadyWaitTimeout(0)
              .limitBytes(LOG_TAIL_BYTES)
              .tailingLines(LOG_TAIL_LINES)
              .getLog();
      return Optional.ofNullable(log);
    } catch (KubernetesClientException e) {
      LOG.info(
          "log of pod {}/{} not readable: {}",
          pod.getMetadata().getNamespace(),
          pod.getMetadata().getName(),
          e.getMessage());
      return Optional.empty();
    }
  }
}
