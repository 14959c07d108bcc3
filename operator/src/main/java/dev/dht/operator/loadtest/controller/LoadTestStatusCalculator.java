package dev.dht.operator.loadtest.controller;

import static dev.dht.operator.loadtest.DhtLoadTestStatus.FAILED;
import static dev.dht.operator.loadtest.DhtLoadTestStatus.PENDING;
import static dev.dht.operator.loadtest.DhtLoadTestStatus.RUNNING;
import static dev.dht.operator.loadtest.DhtLoadTestStatus.SUCCEEDED;

import dev.dht.operator.kube.Conditions;
import dev.dht.operator.loadtest.DhtLoadTest;
import dev.dht.operator.loadtest.DhtLoadTestStatus;
import dev.dht.operator.loadtest.job.JobState;
import dev.dht.operator.loadtest.job.Target;
import dev.dht.operator.loadtest.result.RunOutcome;
import dev.dht.operator.loadtest.result.Verdict;
import io.fabric8.kubernetes.api.model.Condition;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The status of a load test at each step of its life. Pure, so each rule is unit-tested.
 *
 * <ul>
 *   <li>TargetReady: the referenced DhtCluster exists and is Ready (or a targetUrl is given);
 *       evaluated until the Job is created, then kept as it was.
 *   <li>Succeeded: Unknown while Pending/Running, True when the run completed with a summary, False
 *       with the Job's or the pod's reason otherwise (Knative/Tekton style).
 *   <li>Passed: the verdict; Unknown until the run is over.
 * </ul>
 */
final class LoadTestStatusCalculator {
  static final String TARGET_READY = "TargetReady";
  static final String SUCCEEDED_CONDITION = "Succeeded";
  static final String PASSED_CONDITION = "Passed";
  static final String RECONCILE_FAILED = "ReconcileFailed";
  static final String AWAITING_RESULTS = "AwaitingResults";
  static final int MAX_MESSAGE = 1024;

  private LoadTestStatusCalculator() {}

  /** Waiting for the target; no Job yet. */
  static DhtLoadTestStatus pending(DhtLoadTest test, Target target, Instant now) {
    var status = start(test);
    status.setPhase(PENDING);
    status.setConditions(
        List.of(
            cond(test, TARGET_READY, Conditions.FALSE, target.reason(), target.message(), now),
            cond(
                test,
                SUCCEEDED_CONDITION,
                Conditions.UNKNOWN,
                PENDING,
                "not started: " + target.message(),
                now),
            awaitingResults(test, now)));
    return status;
  }

  /**
   * The Job exists and has not finished.
   *
   * @param target the target just resolved when the Job was created now, else null
   */
  static DhtLoadTestStatus running(
      DhtLoadTest test, String jobName, Target target, JobState job, Instant now) {
    var status = start(test);
    status.setPhase(RUNNING);
    status.setJobName(jobName);
    if (target != null) {
      status.setTarget(target.url());
    }
    status.setStartTime(startTime(status, job, now));
    var targetReady =
        target != null
            ? cond(test, TARGET_READY, Conditions.TRUE, target.reason(), target.message(), now)
            : previous(test, TARGET_READY, now);
    status.setConditions(
        List.of(
            targetReady,
            cond(
                test,
                SUCCEEDED_CONDITION,
                Conditions.UNKNOWN,
                RUNNING,
                "Job " + jobName + " runs the load generator against " + status.getTarget(),
                now),
            awaitingResults(test, now)));
    return status;
  }

  /**
   * The run is over.
   *
   * @param report name of the report ConfigMap, null when none was written
   */
  static DhtLoadTestStatus finished(
      DhtLoadTest test,
      JobState job,
      RunOutcome outcome,
      Verdict verdict,
      String report,
      Instant now) {
    var status = start(test);
    status.setPhase(outcome.succeeded() ? SUCCEEDED : FAILED);
    status.setProgress(null);
    status.setStartTime(startTime(status, job, now));
    status.setCompletionTime(job != null && job.endTime() != null ? job.endTime() : timestamp(now));
    if (outcome.summary() != null) {
      status.setResults(outcome.summary().results());
      if (!outcome.summary().generators().isEmpty()) {
        status.setGenerators(outcome.summary().generators());
      }
    }
    status.setVerdict(verdict.text());
    status.setReport(report);
    status.setConditions(
        List.of(
            previous(test, TARGET_READY, now),
            cond(
                test,
                SUCCEEDED_CONDITION,
                outcome.succeeded() ? Conditions.TRUE : Conditions.FALSE,
                outcome.reason(),
                outcome.message(),
                now),
            cond(
                test,
                PASSED_CONDITION,
                verdict.passed() ? Conditions.TRUE : Conditions.FALSE,
                verdict.reason(),
                verdict.message(),
                now)));
    return status;
  }

  /** Reconciliation threw: the phase stays, the Succeeded condition says why nothing moves. */
  static DhtLoadTestStatus failure(DhtLoadTest test, Exception failure, Instant now) {
    var status = start(test);
    if (status.isFinished()) {
      return status;
    }
    if (status.getPhase() == null) {
      status.setPhase(PENDING);
    }
    var conditions = new ArrayList<Condition>();
    conditions.add(previous(test, TARGET_READY, now));
    conditions.add(
        cond(
            test,
            SUCCEEDED_CONDITION,
            Conditions.UNKNOWN,
            RECONCILE_FAILED,
            describe(failure),
            now));
    conditions.add(awaitingResults(test, now));
    status.setConditions(conditions);
    return status;
  }

  private static DhtLoadTestStatus start(DhtLoadTest test) {
    var status = DhtLoadTestStatus.copyOf(test.getStatus());
    status.setObservedGeneration(generation(test));
    return status;
  }

  private static String startTime(DhtLoadTestStatus status, JobState job, Instant now) {
    if (job != null && job.startTime() != null) {
      return job.startTime();
    }
    return status.getStartTime() != null ? status.getStartTime() : timestamp(now);
  }

  private static Condition awaitingResults(DhtLoadTest test, Instant now) {
    return cond(
        test,
        PASSED_CONDITION,
        Conditions.UNKNOWN,
        AWAITING_RESULTS,
        "no verdict before the run is over",
        now);
  }

  /** The condition as it was, or Unknown when it never was set. */
  private static Condition previous(DhtLoadTest test, String type, Instant now) {
    var before = test.getStatus() == null ? List.<Condition>of() : test.getStatus().getConditions();
    return Conditions.find(before, type)
        .orElseGet(
            () -> cond(test, type, Conditions.UNKNOWN, "NotEvaluated", "not evaluated", now));
  }

  private static Condition cond(
      DhtLoadTest test, String type, String status, String reason, String message, Instant now) {
    var before = test.getStatus() == null ? List.<Condition>of() : test.getStatus().getConditions();
    return Conditions.next(before, type, status, reason, message, generation(test), now);
  }

  private static long generation(DhtLoadTest test) {
    return Objects.requireNonNullElse(test.getMetadata().getGeneration(), 0L);
  }

  static String timestamp(Instant now) {
    return now.truncatedTo(ChronoUnit.SECONDS).toString();
  }

  static String describe(Exception failure) {
    Throwable root = failure;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String text = root.getClass().getSimpleName() + ": " + root.getMessage();
    return text.length() <= MAX_MESSAGE ? text : text.substring(0, MAX_MESSAGE);
  }
}
