package dev.dht.operator.loadtest.controller;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.operator.kube.Conditions;
import dev.dht.operator.loadtest.DhtLoadTest;
import dev.dht.operator.loadtest.DhtLoadTestSpec;
import dev.dht.operator.loadtest.DhtLoadTestStatus;
import dev.dht.operator.loadtest.LoadTests;
import dev.dht.operator.loadtest.job.JobState;
import dev.dht.operator.loadtest.job.Target;
import dev.dht.operator.loadtest.result.RunOutcome;
import dev.dht.operator.loadtest.result.Verdict;
import io.fabric8.kubernetes.api.model.Condition;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Each step of a test's life, and the events between them. */
class LoadTestStatusCalculatorTest {
  static final Instant T0 = Instant.parse("2026-11-22T10:00:00Z");
  static final Instant T1 = Instant.parse("2026-11-22T10:01:30Z");

  private static Condition condition(DhtLoadTestStatus status, String type) {
    return Conditions.find(status.getConditions(), type).orElseThrow();
  }

  private static DhtLoadTest withStatus(DhtLoadTest test, DhtLoadTestStatus status) {
    test.setStatus(status);
    return test;
  }

  @Test
  void waitingForTheClusterIsPendingWithTheReason() {
    var test = LoadTests.test("t", "demo");
    var status =
        LoadTestStatusCalculator.pending(
            test, Target.resolve(test, Optional.empty(), LoadTests.IMAGE, LoadTests.POLICY), T0);
    assertThat(status.getPhase()).isEqualTo("Pending");
    assertThat(status.getObservedGeneration()).isEqualTo(1L);
    assertThat(status.getJobName()).isNull();
    var target = condition(status, "TargetReady");
    assertThat(target.getStatus()).isEqualTo("False");
    assertThat(target.getReason()).isEqualTo("ClusterNotFound");
    assertThat(condition(status, "Succeeded").getStatus()).isEqualTo("Unknown");
    assertThat(condition(status, "Passed").getReason()).isEqualTo("AwaitingResults");

    assertThat(LoadTestEvents.between(null, status))
        .extracting(e -> e.type() + " " + e.reason())
        .containsExactly("Warning ClusterNotFound");
    assertThat(LoadTestEvents.between(status, status)).as("no repeat on requeue").isEmpty();
  }

  @Test
  void startingRecordsTheJobTheTargetAndTheStartTime() {
    var test = LoadTests.test("t", "demo");
    var pending =
        LoadTestStatusCalculator.pending(
            test,
            Target.resolve(
                test, Optional.of(LoadTests.cluster("demo", false)), "i", LoadTests.POLICY),
            T0);
    test.setStatus(pending);
    var target =
        Target.resolve(test, Optional.of(LoadTests.cluster("demo", true)), "i", LoadTests.POLICY);
    var running = LoadTestStatusCalculator.running(test, "t-loadgen", target, null, T1);
    assertThat(running.getPhase()).isEqualTo("Running");
    assertThat(running.getJobName()).isEqualTo("t-loadgen");
    assertThat(running.getTarget()).isEqualTo("http://demo.ns.svc:8080");
    assertThat(running.getStartTime()).isEqualTo("2026-11-22T10:01:30Z");
    assertThat(condition(running, "TargetReady").getStatus()).isEqualTo("True");
    assertThat(condition(running, "Succeeded").getReason()).isEqualTo("Running");
    assertThat(condition(running, "Succeeded").getMessage())
        .isEqualTo("Job t-loadgen runs the load generator against http://demo.ns.svc:8080");
    assertThat(LoadTestEvents.between(pending, running))
        .extracting(e -> e.type() + " " + e.reason())
        .containsExactly("Normal Started");

    // later reconciles keep the target condition and take the Job's own start time
    test.setStatus(running);
    var job = JobState.of(LoadTests.job(null, null, null));
    var again = LoadTestStatusCalculator.running(test, "t-loadgen", null, job, T1.plusSeconds(5));
    assertThat(again.getStartTime()).isEqualTo("2026-11-22T10:00:00Z");
    assertThat(condition(again, "TargetReady")).isEqualTo(condition(running, "TargetReady"));
    assertThat(LoadTestEvents.between(running, again)).isEmpty();
  }

  @Test
  void aSuccessfulRunPublishesResultsVerdictAndReport() {
    var test = LoadTests.test("t", "demo");
    var target =
        Target.resolve(test, Optional.of(LoadTests.cluster("demo", true)), "i", LoadTests.POLICY);
    var running = LoadTestStatusCalculator.running(test, "t-loadgen", target, null, T0);
    withStatus(test, running);
    var job = JobState.of(LoadTests.job("Complete", "CompletionsReached", ""));
    var outcome =
        RunOutcome.of(
            job,
            Optional.of(LoadTests.terminated(0, "Completed", LoadTests.terminationMessage())),
            "pod",
            Optional.empty());
    var thresholds = new DhtLoadTestSpec.Thresholds();
    thresholds.setP99Ms(10.0);
    var verdict = Verdict.judge(outcome.summary().results(), thresholds);

    var done = LoadTestStatusCalculator.finished(test, job, outcome, verdict, "t-report", T1);
    assertThat(done.getPhase()).isEqualTo("Succeeded");
    assertThat(done.isFinished()).isTrue();
    assertThat(done.getJobName()).isEqualTo("t-loadgen");
    assertThat(done.getStartTime()).isEqualTo("2026-11-22T10:00:00Z");
    assertThat(done.getCompletionTime()).isEqualTo("2026-11-22T10:01:14Z");
    assertThat(done.getResults().getRequests()).isEqualTo(259);
    assertThat(done.getVerdict()).isEqualTo("Failed");
    assertThat(done.getReport()).isEqualTo("t-report");
    assertThat(condition(done, "Succeeded").getStatus()).isEqualTo("True");
    var passed = condition(done, "Passed");
    assertThat(passed.getStatus()).isEqualTo("False");
    assertThat(passed.getReason()).isEqualTo("ThresholdsExceeded");
    assertThat(passed.getMessage()).isEqualTo("p99 4218.88 ms > 10 ms");
    assertThat(condition(done, "TargetReady").getStatus()).isEqualTo("True");
    assertThat(LoadTestEvents.between(running, done))
        .extracting(e -> e.type() + " " + e.reason())
        .containsExactly("Normal Succeeded", "Warning ThresholdsExceeded");
  }

  @Test
  void aFailedRunIsFailedWithTheJobsReason() {
    var test = LoadTests.test("t", "demo");
    withStatus(
        test,
        LoadTestStatusCalculator.running(
            test,
            "t-loadgen",
            Target.resolve(
                test, Optional.of(LoadTests.cluster("demo", true)), "i", LoadTests.POLICY),
            null,
            T0));
    var job = JobState.of(LoadTests.job("Failed", "DeadlineExceeded", "too long"));
    var outcome = RunOutcome.of(job, Optional.empty(), "(no pod)", Optional.empty());
    var failed =
        LoadTestStatusCalculator.finished(
            test, job, outcome, Verdict.runFailed(outcome.message()), null, T1);
    assertThat(failed.getPhase()).isEqualTo("Failed");
    assertThat(failed.getResults()).isNull();
    assertThat(failed.getReport()).isNull();
    assertThat(failed.getVerdict()).isEqualTo("Failed");
    assertThat(condition(failed, "Succeeded").getStatus()).isEqualTo("False");
    assertThat(condition(failed, "Succeeded").getReason()).isEqualTo("DeadlineExceeded");
    assertThat(condition(failed, "Passed").getReason()).isEqualTo("RunFailed");
    assertThat(LoadTestEvents.between(test.getStatus(), failed))
        .extracting(e -> e.type() + " " + e.reason())
        .containsExactly("Warning Failed", "Warning RunFailed");
  }

  @Test
  void aReconcileFailureKeepsThePhaseAndSaysWhy() {
    var test = LoadTests.test("t", "demo");
    var fresh =
        LoadTestStatusCalculator.failure(test, new IllegalStateException("quota exceeded"), T0);
    assertThat(fresh.getPhase()).isEqualTo("Pending");
    var succeeded = condition(fresh, "Succeeded");
    assertThat(succeeded.getStatus()).isEqualTo("Unknown");
    assertThat(succeeded.getReason()).isEqualTo("ReconcileFailed");
    assertThat(succeeded.getMessage()).isEqualTo("IllegalStateException: quota exceeded");
    assertThat(LoadTestEvents.between(null, fresh))
        .extracting(e -> e.type() + " " + e.reason())
        .contains("Warning ReconcileFailed");

    var finished = new DhtLoadTestStatus();
    finished.setPhase("Succeeded");
    withStatus(test, finished);
    assertThat(LoadTestStatusCalculator.failure(test, new RuntimeException("x"), T0).getPhase())
        .isEqualTo("Succeeded");
  }

  @Test
  void theTransitionTimeMovesOnlyWhenAConditionFlips() {
    var test = LoadTests.test("t", "demo");
    var first =
        LoadTestStatusCalculator.pending(
            test, Target.resolve(test, Optional.empty(), LoadTests.IMAGE, LoadTests.POLICY), T0);
    withStatus(test, first);
    var later =
        LoadTestStatusCalculator.pending(
            test,
            Target.resolve(
                test, Optional.of(LoadTests.cluster("demo", false)), "i", LoadTests.POLICY),
            T1);
    assertThat(condition(later, "TargetReady").getLastTransitionTime())
        .isEqualTo("2026-11-22T10:00:00Z");
    assertThat(condition(later, "TargetReady").getReason()).isEqualTo("ClusterNotReady");
    assertThat(LoadTestEvents.between(first, later))
        .extracting(e -> e.type() + " " + e.reason())
        .containsExactly("Normal ClusterNotReady");
  }
}
