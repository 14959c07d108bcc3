package dev.dht.operator.loadtest.result;

import dev.dht.operator.loadtest.job.JobState;
import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import java.util.Optional;

/**
 * How a finished run ended, from the Job, the load generator container's terminated state and the
 * tail of its log. Pure.
 *
 * @param reason CamelCase reason of the Succeeded condition
 * @param summary present when the run succeeded
 */
public record RunOutcome(boolean succeeded, String reason, String message, RunSummary summary) {
  public static final String COMPLETED = "Completed";
  static final String SUMMARY_MISSING = "SummaryMissing";
  static final String JOB_DELETED = "JobDeleted";
  static final String JOB_NOT_OWNED = "JobNotOwned";
  public static final String RESULTS_MISSING = "ResultsMissing";
  public static final String GENERATOR_BEHIND = "GeneratorBehind";
  public static final String ABORTED = "Aborted";
  static final int MAX_MESSAGE = 1024;

  /**
   * @param terminated the load generator container's terminated state, if a pod was found
   * @param podName for messages
   * @param logTail the last lines of the pod log, if readable (failures only)
   */
  public static RunOutcome of(
      JobState job,
      Optional<ContainerStateTerminated> terminated,
      String podName,
      Optional<String> logTail) {
    if (job.kind() == JobState.Kind.COMPLETE) {
      String message = terminated.map(ContainerStateTerminated::getMessage).orElse(null);
      try {
        var summary = RunSummary.parse(message);
        return new RunOutcome(true, COMPLETED, summary.describe(), summary);
      } catch (IllegalArgumentException e) {
        String where = terminated.isEmpty() ? "no finished load generator pod found" : podName;
        return failed(
            SUMMARY_MISSING,
            "the Job completed but left no readable summary (" + where + "): " + e.getMessage());
      }
    }
    var text = new StringBuilder("Job failed");
    if (job.message() != null && !job.message().isBlank()) {
      text.append(": ").append(job.message());
    }
    terminated.ifPresent(t -> text.append("; ").append(describe(podName, t)));
    logTail
        .filter(tail -> !tail.isBlank())
        .ifPresent(tail -> text.append("; log tail: ").append(tail.strip()));
    return failed(job.reason(), text.toString());
  }

  /** The same outcome with the results it has despite its failure (shown in the status). */
  public RunOutcome withSummary(RunSummary summary) {
    return new RunOutcome(succeeded, reason, message, summary);
  }

  /** The same outcome with a remark appended to its message. */
  public RunOutcome withNote(String note) {
    return new RunOutcome(succeeded, reason, message + "; " + note, summary);
  }

  static final String PENDING_TOO_LONG = "PendingTooLong";

  /** The target was not ready within the test's pending timeout. */
  public static RunOutcome pendingTooLong(String waitingFor, java.time.Duration timeout) {
    return failed(
        PENDING_TOO_LONG,
        "still pending after " + timeout.toSeconds() + "s (spec.pendingTimeout): " + waitingFor);
  }

  public static RunOutcome jobDeleted(String jobName) {
    return failed(JOB_DELETED, "Job " + jobName + " was deleted before it finished");
  }

  /** A Job of the test's Job name that the test does not control: its pods are not trusted. */
  public static RunOutcome jobNotOwned(String jobName) {
    return failed(
        JOB_NOT_OWNED,
        "Job "
            + jobName
            + " exists but was not made for this test (no owner reference to its UID):"
            + " its pods are not trusted as load generators");
  }

  static String describe(String podName, ContainerStateTerminated t) {
    var text = new StringBuilder("pod ").append(podName).append(": load generator exited with ");
    text.append(t.getExitCode());
    if (t.getReason() != null && !t.getReason().isBlank()) {
      text.append(" (").append(t.getReason()).append(')');
    }
    if (t.getExitCode() != null && t.getExitCode() == 2) {
      text.append(", bad options");
    }
    return text.toString();
  }

  public static RunOutcome failed(String reason, String message) {
    String bounded = message.length() <= MAX_MESSAGE ? message : message.substring(0, MAX_MESSAGE);
    return new RunOutcome(false, reason, bounded, null);
  }
}
