package dev.dht.operator.loadtest;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.dht.operator.crd.KubernetesSchemas;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.ArrayList;
import java.util.List;

/** What happened to the run; written by the operator only. */
@JsonInclude(JsonInclude.Include.NON_NULL)
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
  private List<String> artifacts = new ArrayList<>();

  public List<String> getArtifacts() {
    return artifacts;
  }

  public void setArtifacts(List<String> artifacts) {
    this.artifacts = artifacts;
  }

  public Comparison getComparison() {
    return comparison;
  }

  public void setComparison(Comparison comparison) {
    this.comparison = comparison;
  }

  @SchemaFrom(type = KubernetesSchemas.Condition[].class)
  @JsonPropertyDescription(
      "Conditions: TargetReady, Succeeded (the run completed), Passed (the verdict),"
          + " AwaitingResults.")
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

  public Progress getProgress() {
    return progress;
  }

  public void setProgress(Progress progress) {
    this.progress = progress;
  }

  public String getAborted() {
    return aborted;
  }

  public void setAborted(String aborted) {
    this.aborted = aborted;
  }

  /** A running test, as its generators last reported (measured counts are approximate). */
  @JsonInclude(JsonInclude.Include.NON_NULL)
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

    public String getSummary() {
      return summary;
    }

    public void setSummary(String summary) {
      this.summary = summary;
    }

    public Double getElapsedSeconds() {
      return elapsedSeconds;
    }

    public void setElapsedSeconds(Double elapsedSeconds) {
      this.elapsedSeconds = elapsedSeconds;
    }

    public Double getRemainingSeconds() {
      return remainingSeconds;
    }

    public void setRemainingSeconds(Double remainingSeconds) {
      this.remainingSeconds = remainingSeconds;
    }

    public Long getRequests() {
      return requests;
    }

    public void setRequests(Long requests) {
      this.requests = requests;
    }

    public Long getErrors() {
      return errors;
    }

    public void setErrors(Long errors) {
      this.errors = errors;
    }

    public Long getNon2xx() {
      return non2xx;
    }

    public void setNon2xx(Long non2xx) {
      this.non2xx = non2xx;
    }

    public Double getAchievedRate() {
      return achievedRate;
    }

    public void setAchievedRate(Double achievedRate) {
      this.achievedRate = achievedRate;
    }

    public Double getP99Ms() {
      return p99Ms;
    }

    public void setP99Ms(Double p99Ms) {
      this.p99Ms = p99Ms;
    }
  }

  @JsonPropertyDescription(
      "With parallelism above 1: each generator's own result; status.results merges them.")
  private List<Generator> generators;

  public String getStartAt() {
    return startAt;
  }

  public void setStartAt(String startAt) {
    this.startAt = startAt;
  }

  public List<Generator> getGenerators() {
    return generators;
  }

  public void setGenerators(List<Generator> generators) {
    this.generators = generators;
  }

  /** One generator of a parallel test. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
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

    public Integer getIndex() {
      return index;
    }

    public void setIndex(Integer index) {
      this.index = index;
    }

    public String getPod() {
      return pod;
    }

    public void setPod(String pod) {
      this.pod = pod;
    }

    public Double getTargetRate() {
      return targetRate;
    }

    public void setTargetRate(Double targetRate) {
      this.targetRate = targetRate;
    }

    public Double getAchievedRate() {
      return achievedRate;
    }

    public void setAchievedRate(Double achievedRate) {
      this.achievedRate = achievedRate;
    }

    public Long getRequests() {
      return requests;
    }

    public void setRequests(Long requests) {
      this.requests = requests;
    }

    public Long getErrors() {
      return errors;
    }

    public void setErrors(Long errors) {
      this.errors = errors;
    }

    public Long getNon2xx() {
      return non2xx;
    }

    public void setNon2xx(Long non2xx) {
      this.non2xx = non2xx;
    }

    public Double getP99Ms() {
      return p99Ms;
    }

    public void setP99Ms(Double p99Ms) {
      this.p99Ms = p99Ms;
    }

    public Boolean getWarmedUp() {
      return warmedUp;
    }

    public void setWarmedUp(Boolean warmedUp) {
      this.warmedUp = warmedUp;
    }

    public String getWindowStart() {
      return windowStart;
    }

    public void setWindowStart(String windowStart) {
      this.windowStart = windowStart;
    }

    public String getWindowEnd() {
      return windowEnd;
    }

    public void setWindowEnd(String windowEnd) {
      this.windowEnd = windowEnd;
    }
  }

  /** Copy of a previous status, the starting point of the next one. */
  public static DhtLoadTestStatus copyOf(DhtLoadTestStatus previous) {
    var copy = new DhtLoadTestStatus();
    if (previous != null) {
      copy.observedGeneration = previous.observedGeneration;
      copy.phase = previous.phase;
      copy.jobName = previous.jobName;
      copy.target = previous.target;
      copy.startTime = previous.startTime;
      copy.completionTime = previous.completionTime;
      copy.results = previous.results;
      copy.verdict = previous.verdict;
      copy.report = previous.report;
      copy.startAt = previous.startAt;
      copy.progress = previous.progress;
      copy.aborted = previous.aborted;
      copy.generators = previous.generators;
      copy.conditions =
          new ArrayList<>(previous.conditions == null ? List.of() : previous.conditions);
    }
    return copy;
  }

  @JsonIgnore
  public boolean isFinished() {
    return SUCCEEDED.equals(phase) || FAILED.equals(phase);
  }

  public Long getObservedGeneration() {
    return observedGeneration;
  }

  public void setObservedGeneration(Long observedGeneration) {
    this.observedGeneration = observedGeneration;
  }

  public String getPhase() {
    return phase;
  }

  public void setPhase(String phase) {
    this.phase = phase;
  }

  public String getJobName() {
    return jobName;
  }

  public void setJobName(String jobName) {
    this.jobName = jobName;
  }

  public String getTarget() {
    return target;
  }

  public void setTarget(String target) {
    this.target = target;
  }

  public String getStartTime() {
    return startTime;
  }

  public void setStartTime(String startTime) {
    this.startTime = startTime;
  }

  public String getCompletionTime() {
    return completionTime;
  }

  public void setCompletionTime(String completionTime) {
    this.completionTime = completionTime;
  }

  public Results getResults() {
    return results;
  }

  public void setResults(Results results) {
    this.results = results;
  }

  public String getVerdict() {
    return verdict;
  }

  public void setVerdict(String verdict) {
    this.verdict = verdict;
  }

  public String getReport() {
    return report;
  }

  public void setReport(String report) {
    this.report = report;
  }

  public List<Condition> getConditions() {
    return conditions;
  }

  public void setConditions(List<Condition> conditions) {
    this.conditions = conditions;
  }

  /** The measured window of the run, from the load generator's summary. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
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

    public Double getWindowOverlap() {
      return windowOverlap;
    }

    public void setWindowOverlap(Double windowOverlap) {
      this.windowOverlap = windowOverlap;
    }

    public List<Double> getP99ByThirdMs() {
      return p99ByThirdMs;
    }

    public void setP99ByThirdMs(List<Double> p99ByThirdMs) {
      this.p99ByThirdMs = p99ByThirdMs;
    }

    public Boolean getWarmedUp() {
      return warmedUp;
    }

    public void setWarmedUp(Boolean warmedUp) {
      this.warmedUp = warmedUp;
    }

    public Long getRequests() {
      return requests;
    }

    public void setRequests(Long requests) {
      this.requests = requests;
    }

    public Double getAchievedRate() {
      return achievedRate;
    }

    public void setAchievedRate(Double achievedRate) {
      this.achievedRate = achievedRate;
    }

    public Long getErrors() {
      return errors;
    }

    public void setErrors(Long errors) {
      this.errors = errors;
    }

    public Long getNon2xx() {
      return non2xx;
    }

    public void setNon2xx(Long non2xx) {
      this.non2xx = non2xx;
    }

    public Long getNotFound() {
      return notFound;
    }

    public void setNotFound(Long notFound) {
      this.notFound = notFound;
    }

    public Latency getLatencyMs() {
      return latencyMs;
    }

    public void setLatencyMs(Latency latencyMs) {
      this.latencyMs = latencyMs;
    }
  }

  /** Latency percentiles in milliseconds; null when nothing was measured. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
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

    public Latency() {}

    public Latency(Double p50, Double p90, Double p99, Double p999, Double max) {
      this.p50 = p50;
      this.p90 = p90;
      this.p99 = p99;
      this.p999 = p999;
      this.max = max;
    }

    public Double getP50() {
      return p50;
    }

    public void setP50(Double p50) {
      this.p50 = p50;
    }

    public Double getP90() {
      return p90;
    }

    public void setP90(Double p90) {
      this.p90 = p90;
    }

    public Double getP99() {
      return p99;
    }

    public void setP99(Double p99) {
      this.p99 = p99;
    }

    public Double getP999() {
      return p999;
    }

    public void setP999(Double p999) {
      this.p999 = p999;
    }

    public Double getMax() {
      return max;
    }

    public void setMax(Double max) {
      this.max = max;
    }
  }
}
