package dev.dht.operator.loadtest.result;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.operator.loadtest.LoadTests;
import dev.dht.operator.loadtest.job.JobState;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** JobState (what the Job says) and RunOutcome (what the run produced). */
class RunOutcomeTest {

  @Test
  void aJobIsRunningUntilItsFinalCondition() {
    var running = JobState.of(LoadTests.job(null, null, null));
    assertThat(running.kind()).isEqualTo(JobState.Kind.RUNNING);
    assertThat(running.finished()).isFalse();
    assertThat(running.startTime()).isEqualTo("2026-11-22T10:00:00Z");
    assertThat(
            JobState.of(LoadTests.job("SuccessCriteriaMet", "CompletionsReached", "")).finished())
        .as("interim condition")
        .isFalse();
    assertThat(JobState.of(new Job()).kind()).isEqualTo(JobState.Kind.RUNNING);
  }

  @Test
  void completeAndFailedJobsAreFinished() {
    var complete =
        JobState.of(LoadTests.job("Complete", "CompletionsReached", "Reached expected number"));
    assertThat(complete.kind()).isEqualTo(JobState.Kind.COMPLETE);
    assertThat(complete.endTime()).isEqualTo("2026-11-22T10:01:14Z");
    var failed =
        JobState.of(
            LoadTests.job("Failed", "BackoffLimitExceeded", "Job has reached the backoff limit"));
    assertThat(failed.kind()).isEqualTo(JobState.Kind.FAILED);
    assertThat(failed.reason()).isEqualTo("BackoffLimitExceeded");
    assertThat(failed.endTime()).isEqualTo("2026-11-22T10:01:15Z");
  }

  @Test
  void aCompletedRunWithASummarySucceeds() {
    var outcome =
        RunOutcome.of(
            JobState.of(LoadTests.job("Complete", "CompletionsReached", "")),
            Optional.of(LoadTests.terminated(0, "Completed", LoadTests.terminationMessage())),
            "t-loadgen-abcde",
            Optional.empty());
    assertThat(outcome.succeeded()).isTrue();
    assertThat(outcome.reason()).isEqualTo(RunOutcome.COMPLETED);
    assertThat(outcome.summary().results().getRequests()).isEqualTo(259);
    assertThat(outcome.message()).startsWith("259 requests at 64.75 req/s");
  }

  @Test
  void aCompletedRunWithoutASummaryFails() {
    var complete = JobState.of(LoadTests.job("Complete", "CompletionsReached", ""));
    var noMessage =
        RunOutcome.of(
            complete,
            Optional.of(LoadTests.terminated(0, "Completed", null)),
            "p",
            Optional.empty());
    assertThat(noMessage.succeeded()).isFalse();
    assertThat(noMessage.reason()).isEqualTo(RunOutcome.SUMMARY_MISSING);
    assertThat(noMessage.message()).contains("termination message is empty");
    var noPod = RunOutcome.of(complete, Optional.empty(), "(no pod)", Optional.empty());
    assertThat(noPod.reason()).isEqualTo(RunOutcome.SUMMARY_MISSING);
    assertThat(noPod.message()).contains("no finished load generator pod");
  }

  @Test
  void aFailedRunSaysWhyFromTheJobThePodAndTheLog() {
    var outcome =
        RunOutcome.of(
            JobState.of(
                LoadTests.job(
                    "Failed", "BackoffLimitExceeded", "Job has reached the backoff limit")),
            Optional.of(LoadTests.terminated(2, "Error", null)),
            "t-loadgen-abcde",
            Optional.of("loadgen: --threads must not exceed --connections"));
    assertThat(outcome.succeeded()).isFalse();
    assertThat(outcome.reason()).isEqualTo("BackoffLimitExceeded");
    assertThat(outcome.message())
        .isEqualTo(
            "Job failed: Job has reached the backoff limit; pod t-loadgen-abcde: load generator"
                + " exited with 2 (Error), bad options; log tail: loadgen: --threads must not"
                + " exceed --connections");
    assertThat(outcome.summary()).isNull();
  }

  @Test
  void aDeadlineIsReportedEvenWithoutAPod() {
    var outcome =
        RunOutcome.of(
            JobState.of(
                LoadTests.job("Failed", "DeadlineExceeded", "Job was active longer than allowed")),
            Optional.empty(),
            "(no pod)",
            Optional.empty());
    assertThat(outcome.reason()).isEqualTo("DeadlineExceeded");
    assertThat(outcome.message()).isEqualTo("Job failed: Job was active longer than allowed");
  }

  @Test
  void messagesAreBounded() {
    var outcome =
        RunOutcome.of(
            JobState.of(LoadTests.job("Failed", "BackoffLimitExceeded", "x".repeat(5000))),
            Optional.empty(),
            "p",
            Optional.empty());
    assertThat(outcome.message()).hasSize(RunOutcome.MAX_MESSAGE);
  }

  @Test
  void aJobTheTestDoesNotOwnFailsItAndSaysWhy() {
    var outcome = RunOutcome.jobNotOwned("put-10k-loadgen");
    assertThat(outcome.succeeded()).isFalse();
    assertThat(outcome.reason()).isEqualTo("JobNotOwned");
    assertThat(outcome.message())
        .startsWith("Job put-10k-loadgen exists but was not made for this test")
        .endsWith("its pods are not trusted as load generators");
  }
}
