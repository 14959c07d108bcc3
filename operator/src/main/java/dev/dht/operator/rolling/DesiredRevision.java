package dev.dht.operator.rolling;

import java.util.List;
import java.util.Objects;

/**
 * The revision node pods should run, and whether this operator's own pod template is accepted for
 * the cluster. While it is not (the upgrade gate holds the defaults of an older operator), a pod
 * that differs only by the operator's template keeps running: it restarts only when the cluster's
 * restart-needing settings changed ({@link PodRevision#INPUTS}). Pure.
 */
public record DesiredRevision(PodRevision revision, boolean templateAccepted) {

  /**
   * Whether a pod created from {@code pod} must restart to run the desired revision. A pod of
   * unknown revision need not; neither need, while the template is not accepted, one created by an
   * older operator (its inputs are unknown).
   */
  public boolean needsRestart(PodRevision pod) {
    if (pod == null || pod.equals(revision)) {
      return false;
    }
    return templateAccepted || pod.inputs() != null && !pod.inputs().equals(revision.inputs());
  }

  /** Whether a pod created from {@code pod} runs what it should (unknown: no). */
  public boolean runBy(PodRevision pod) {
    return pod != null && !needsRestart(pod);
  }

  /** What changed for a pod created from {@code pod}, for people: "image, node flags". */
  public String changesFor(PodRevision pod) {
    List<String> changes =
        pod == null
            ? List.of("unknown revision")
            : revision.changesFrom(Objects.requireNonNull(pod));
    return String.join(", ", changes);
  }
}
