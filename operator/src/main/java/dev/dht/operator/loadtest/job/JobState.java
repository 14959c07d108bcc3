package dev.dht.operator.loadtest.job;

import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import java.util.List;
import java.util.Optional;

/**
 * Where the Job stands, from its status. Only the final Complete and Failed conditions count: the
 * interim SuccessCriteriaMet / FailureTarget come before the pod is fully accounted for. Pure.
 *
 * @param reason for a failed Job, the reason of its Failed condition (BackoffLimitExceeded,
 *     DeadlineExceeded, ...)
 */
public record JobState(Kind kind, String reason, String message, String startTime, String endTime) {

  public enum Kind {
    RUNNING,
    COMPLETE,
    FAILED
  }

  public boolean finished() {
    return kind != Kind.RUNNING;
  }

  public static JobState of(Job job) {
    var status = job.getStatus();
    String start = status == null ? null : status.getStartTime();
    List<JobCondition> conditions =
        status == null || status.getConditions() == null ? List.of() : status.getConditions();
    var complete = trueCondition(conditions, "Complete");
    if (complete.isPresent()) {
      String end =
          status.getCompletionTime() != null
              ? status.getCompletionTime()
              : complete.get().getLastTransitionTime();
      return new JobState(Kind.COMPLETE, "Complete", complete.get().getMessage(), start, end);
    }
    var failed = trueCondition(conditions, "Failed");
    if (failed.isPresent()) {
      var c = failed.get();
      return new JobState(
          Kind.FAILED,
          c.getReason() == null || c.getReason().isBlank() ? "JobFailed" : c.getReason(),
          c.getMessage(),
          start,
          c.getLastTransitionTime());
    }
    return new JobState(Kind.RUNNING, null, null, start, null);
  }

  private static Optional<JobCondition> trueCondition(List<JobCondition> conditions, String type) {
    return conditions.stream()
        .filter(c -> type.equals(c.getType()) && "True".equals(c.getStatus()))
        .findFirst();
  }
}
