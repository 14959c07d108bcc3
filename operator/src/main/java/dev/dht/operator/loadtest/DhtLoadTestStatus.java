package dev.dht.operator.loadtest;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.dht.operator.crd.KubernetesSchemas;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.ArrayList;
import java.util.List;
import lombok.AccessLevel;
import lombok.AllArgsConstructor;
import lombok.Builder;
import lombok.Data;
import lombok.NoArgsConstructor;

/** What happened to the run; written by the operator only. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Data
@Builder(toBuilder = true)
@NoArgsConstructor
@AllArgsConstructor(access = AccessLevel.PRIVATE)
public class DhtLoadTestStatus {
  public static final String PENDING = "Pending";
  public static final String RUNNING = "Running";
  public static final String SUCCEEDED = "Succeeded";
  public static final String FAILED = "Failed";
  public static final String PASSED = "Passed";

  @JsonPropertyDescription("metadata.generation of the spec this status was computed for.")
  private Long observedGeneration;

  @JsonPropertyDescription("Pending, Running, Succeeded or Failed.")
  private String phase;

  @JsonPropertyDescription("The Job running the load generator.")
  private String jobName;

  @JsonPropertyDescription("The URL the load generator was pointed at.")
  private String target;

  @JsonPropertyDescription(
      "When the load generator Job started (RFC 3339); before that, when the operator first saw"
          + " the run start.")
  private String startTime;

  @JsonPropertyDescription(
      "When the run ended (RFC 3339): the Job's completion, else when the operator saw it end.")
  private String completionTime;

  @JsonPropertyDescription(
      "The measured window of the run (the warm-up excluded), from the load generator's"
          + " summary.")
  private Results results;

  @JsonPropertyDescription(
      "Passed or Failed against the thresholds; the reasons are in the Passed condition.")
  private String verdict;

  @JsonPropertyDescription(
      "ConfigMap with summary.json, the wrk2 percentile spectrum and an HTML report.")
  private String report;

  @JsonPropertyDescription("This run against spec.baseline, when set.")
  private Comparison comparison;

  @JsonPropertyDescription(
      "Artifacts stored with the report (e.g. flame-<pod>-<event>.html), each in ConfigMaps"
          + " labelled dht.dev/artifact, gzipped and split into parts below 1 MiB.")
  @Builder.Default
  private List<String> artifacts = new ArrayList<>();

  @SchemaFrom(type = KubernetesSchemas.Condition[].class)
  @JsonPropertyDescription(
      "Conditions: TargetReady, Succeeded (the run completed), Passed (the verdict),"
          + " AwaitingResults.")
  @Builder.Default
  private List<Condition> conditions = new ArrayList<>();

  @JsonPropertyDescription(
      "With parallelism above 1: the moment the generators were told to start (their warm-up"
          + " begins then, the measured window after it).")
  private String startAt;

  @JsonPropertyDescription(
      "While running: where the run stands, from the generators, every few seconds.")
  private Progress progress;

  @JsonPropertyDescription("Why the operator stopped the run early (thresholds.abortOnFail).")
  private String aborted;

  @JsonPropertyDescription(
      "With spec.profile: when the operator asked the nodes to profile the measured window, for"
          + " how long, and which nodes started; asked once.")
  private ProfileRun profile;

  /** The profile the operator asked of the cluster's nodes during the measured window. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @Data
  @Builder(toBuilder = true)
  @NoArgsConstructor
  @AllArgsConstructor(access = AccessLevel.PRIVATE)
  public static class ProfileRun {
    @JsonPropertyDescription(
        "When the operator asked the nodes (RFC 3339): at its first look at the generators"
            + " after their measured window opened, within about 3 s of the opening.")
    private String startedAt;

    @JsonPropertyDescription(
        "How long the nodes were asked to profile: what was left of the measured window (at"
            + " most 600 s, a node's limit).")
    private Long seconds;

    @JsonPropertyDescription("The pods that started the profile: their flame graphs are collected.")
    @Builder.Default
    private List<String> nodes = new ArrayList<>();

    @JsonPropertyDescription("The pods that did not, each with why (e.g. 'demo-2: 409 ...').")
    @Builder.Default
    private List<String> notStarted = new ArrayList<>();
  }

  /** A running test, as its generators last reported (measured counts are approximate). */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @Data
  @Builder(toBuilder = true)
  @NoArgsConstructor
  @AllArgsConstructor(access = AccessLevel.PRIVATE)
  public static class Progress {
    @JsonPropertyDescription("e.g. 'measuring 12/30 s, 3998 req/s, p99 3.2 ms'.")
    private String summary;

    @JsonPropertyDescription("Seconds since the generators started, the warm-up included.")
    private Double elapsedSeconds;

    @JsonPropertyDescription("Seconds left of warm-up and measured duration.")
    private Double remainingSeconds;

    @JsonPropertyDescription("Measured so far (the warm-up excluded).")
    private Long requests;

    @JsonPropertyDescription("Transport errors so far: connect failures, timeouts, I/O errors.")
    private Long errors;

    @JsonPropertyDescription("Answers other than 2xx so far.")
    private Long non2xx;

    @JsonPropertyDescription(
        "Completed requests per second of the measured part so far, all generators together.")
    private Double achievedRate;

    @JsonPropertyDescription(
        "99th percentile latency of the measured part so far, in milliseconds.")
    private Double p99Ms;
  }

  @JsonPropertyDescription(
      "With parallelism above 1: each generator's own result; status.results merges them.")
  private List<Generator> generators;

  /** One generator of a parallel test. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @Data
  @Builder(toBuilder = true)
  @NoArgsConstructor
  @AllArgsConstructor(access = AccessLevel.PRIVATE)
  public static class Generator {
    @JsonPropertyDescription("Number of the generator, from 0.")
    private Integer index;

    @JsonPropertyDescription("Its pod.")
    private String pod;

    @JsonPropertyDescription("Its share of spec.rate.")
    private Double targetRate;

    @JsonPropertyDescription("Completed requests per second in its measured window.")
    private Double achievedRate;

    @JsonPropertyDescription("Requests it completed in its measured window.")
    private Long requests;

    @JsonPropertyDescription("Its transport errors: connect failures, timeouts, I/O errors.")
    private Long errors;

    @JsonPropertyDescription("Its answers other than 2xx.")
    private Long non2xx;

    @JsonPropertyDescription("Its 99th percentile latency, in milliseconds.")
    private Double p99Ms;

    @JsonPropertyDescription("False when its latency was still falling (see results.warmedUp).")
    private Boolean warmedUp;

    @JsonPropertyDescription("Its measured window on its own clock.")
    private String windowStart;

    @JsonPropertyDescription("End of its measured window on its own clock.")
    private String windowEnd;
  }

  /**
   * Copy of a previous status, the starting point of the next one: every field (through the
   * generated {@code toBuilder}, so none can be missed), with new lists of conditions and artifacts
   * (the nested objects and the list of generators are shared); an empty status for none.
   */
  public static DhtLoadTestStatus copyOf(DhtLoadTestStatus previous) {
    if (previous == null) {
      return new DhtLoadTestStatus();
    }
    return previous.toBuilder()
        .conditions(new ArrayList<>(previous.conditions == null ? List.of() : previous.conditions))
        .artifacts(new ArrayList<>(previous.artifacts == null ? List.of() : previous.artifacts))
        .build();
  }

  @JsonIgnore
  public boolean isFinished() {
    return SUCCEEDED.equals(phase) || FAILED.equals(phase);
  }

  /** The measured window of the run, from the load generator's summary. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @Data
  @Builder(toBuilder = true)
  @NoArgsConstructor
  @AllArgsConstructor(access = AccessLevel.PRIVATE)
  public static class Results {
    @JsonPropertyDescription("Requests completed in the measured window.")
    private Long requests;

    @JsonPropertyDescription("Completed requests per second in the measured window.")
    private Double achievedRate;

    @JsonPropertyDescription("Transport errors: connect failures, timeouts, I/O errors.")
    private Long errors;

    @JsonPropertyDescription("Answers other than 2xx (a GET's 404 counts as a success).")
    private Long non2xx;

    @JsonPropertyDescription("GETs answered 404 (key absent); successes, counted apart.")
    private Long notFound;

    @JsonPropertyDescription(
        "Latency from each request's intended send time (coordinated omission corrected).")
    private Latency latencyMs;

    @JsonPropertyDescription(
        "p99 of the requests due in each third of the measured window, in milliseconds.")
    private List<Double> p99ByThirdMs;

    @JsonPropertyDescription(
        "False when latency was still falling during the measured window (a cold JVM, a node still"
            + " starting): the first third's p99 at least twice the last third's and 1 ms above it."
            + " A longer warm-up gives numbers that hold.")
    private Boolean warmedUp;

    @JsonPropertyDescription(
        "With parallelism above 1: the time all generators were measuring together over the time"
            + " any was (1: their windows coincide).")
    private Double windowOverlap;
  }

  /** Latency percentiles in milliseconds; null when nothing was measured. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @Data
  @Builder(toBuilder = true)
  @NoArgsConstructor
  @AllArgsConstructor
  public static class Latency {
    @JsonPropertyDescription("Median latency (50th percentile), in milliseconds.")
    private Double p50;

    @JsonPropertyDescription("90th percentile latency, in milliseconds.")
    private Double p90;

    @JsonPropertyDescription("99th percentile latency, in milliseconds.")
    private Double p99;

    @JsonPropertyDescription("99.9th percentile latency, in milliseconds.")
    private Double p999;

    @JsonPropertyDescription("Largest latency, in milliseconds.")
    private Double max;
  }
}
