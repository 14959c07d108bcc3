package dev.dht.operator.loadtest;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.dht.operator.cluster.Scheduling;
import dev.dht.operator.crd.KubernetesSchemas;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import lombok.AccessLevel;
import lombok.AllArgsConstructor;
import lombok.Builder;
import lombok.Data;
import lombok.NoArgsConstructor;

/**
 * What to run. Immutable once created: a load test is a record of one run, so editing it must not
 * silently run it again (or relabel old results).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "self == oldSelf", message = DhtLoadTestSpec.IMMUTABLE_MESSAGE)
@ValidationRule(
    value = "has(self.clusterRef) != has(self.targetUrl)",
    message = "exactly one of clusterRef and targetUrl must be set")
@ValidationRule(
    value = "!has(self.ack) || !has(self.from) || self.ack <= self.from",
    message = "ack must not exceed from")
@ValidationRule(
    value = "!has(self.profile) || has(self.clusterRef)",
    message = "profile needs a clusterRef: the nodes it profiles are the cluster's")
@ValidationRule(
    value = "!has(self.threads) || self.threads <= self.connections",
    message = "threads must not exceed connections (each event loop needs a connection)")
@ValidationRule(
    value = "!has(self.parallelism) || self.parallelism <= self.connections",
    message = "parallelism must not exceed connections (each generator needs a connection)")
@Data
@Builder(toBuilder = true)
@NoArgsConstructor
@AllArgsConstructor(access = AccessLevel.PRIVATE)
public class DhtLoadTestSpec {
  static final String IMMUTABLE_MESSAGE = "spec is immutable: create a new DhtLoadTest to re-run";

  /** Go-style duration as kubectl users write it: 60s, 2m, 1m30s, 1.5s, 500ms, 1h. */
  public static final String DURATION_PATTERN = "^([0-9]+(\\.[0-9]+)?(ms|s|m|h))+$";

  static final String POSITIVE_DURATION_RULE = "duration(self) > duration('0s')";

  @JsonPropertyDescription("The DhtCluster to load, in this namespace: its client Service.")
  private ClusterRef clusterRef;

  @Pattern("^http://[^/\\s,]+/?$")
  @JsonPropertyDescription(
      "Base URL of a dht endpoint (http://host:port), instead of clusterRef. Only a URL the"
          + " operator's policy allows (chart value policy.loadTestTargets, empty by default) is"
          + " loaded; another keeps the test Pending (TargetReady False, TargetNotAllowed).")
  private String targetUrl;

  @Default("{}")
  @JsonPropertyDescription("What the requests do: operation, keys and values.")
  @Builder.Default
  private Workload workload = new Workload();

  @Min(1)
  @JsonPropertyDescription("Acks per request; default: the cluster's default ack.")
  private Integer ack;

  @Min(1)
  @JsonPropertyDescription("Replicas per request; default: the cluster's default from.")
  private Integer from;

  @Required
  @Min(1)
  @JsonPropertyDescription("Constant request rate in requests/s (open model, like wrk2 -R).")
  private Integer rate;

  @Default("60s")
  @Pattern(DURATION_PATTERN)
  @ValidationRule(value = POSITIVE_DURATION_RULE, message = "duration must be positive")
  @JsonPropertyDescription("Measured duration, e.g. 60s, 2m, 1m30s.")
  @Builder.Default
  private String duration = "60s";

  @Default("10s")
  @Pattern(DURATION_PATTERN)
  @JsonPropertyDescription("Warm-up before the measured duration, excluded from the results.")
  @Builder.Default
  private String warmup = "10s";

  @JsonPropertyDescription(
      "An earlier DhtLoadTest (same namespace) to compare with: status.comparison, the report,"
          + " and thresholds.regression.")
  private BaselineRef baseline;

  @JsonPropertyDescription(
      "Profile the cluster's nodes with async-profiler during the measured window (not the"
          + " warm-up): one flame graph per node and event, stored with the report.")
  private Profile profile;

  /** What to profile, on which nodes. */
  @Data
  @Builder(toBuilder = true)
  @NoArgsConstructor
  @AllArgsConstructor(access = AccessLevel.PRIVATE)
  public static class Profile {
    @Required
    @JsonPropertyDescription("Events: cpu or wall, alloc, lock.")
    @Builder.Default
    private List<ProfileEvent> events = new ArrayList<>();

    @JsonPropertyDescription("Pod names of the nodes to profile; empty: every node.")
    @Builder.Default
    private List<String> nodes = new ArrayList<>();
  }

  /** An async-profiler event. */
  public enum ProfileEvent {
    @JsonProperty("cpu")
    CPU,
    @JsonProperty("wall")
    WALL,
    @JsonProperty("alloc")
    ALLOC,
    @JsonProperty("lock")
    LOCK;

    public String cliName() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** The load test this one is compared with. */
  @Data
  @Builder(toBuilder = true)
  @NoArgsConstructor
  @AllArgsConstructor
  public static class BaselineRef {
    @Required
    @JsonPropertyDescription("Name of a DhtLoadTest in this namespace.")
    private String name;
  }

  @Default("10m")
  @Pattern(DURATION_PATTERN)
  @ValidationRule(value = POSITIVE_DURATION_RULE, message = "pendingTimeout must be positive")
  @JsonPropertyDescription(
      "How long the test may wait for its target to be ready (Pending) before it fails.")
  @Builder.Default
  private String pendingTimeout = "10m";

  @Default("64")
  @Min(1)
  @Max(10000)
  @JsonPropertyDescription("Keep-alive connections, one request in flight each.")
  @Builder.Default
  private Integer connections = 64;

  @Min(1)
  @JsonPropertyDescription(
      "Load generator event loops. Default: one per whole core of the generator's CPU limit, else"
          + " of its CPU request (at least one, at most the connections).")
  private Integer threads;

  @Default("1")
  @Min(1)
  @Max(MAX_PARALLELISM)
  @JsonPropertyDescription(
      "Load generator pods running the test together, each at rate/parallelism with about"
          + " connections/parallelism, their measured windows started at the same moment; the"
          + " result merges their histograms exactly. Above 1 the operator must reach the pods"
          + " (port 9090) to start them and collect their histograms.")
  @Builder.Default
  private Integer parallelism = 1;

  static final int MAX_PARALLELISM = 32;

  @JsonPropertyDescription(
      "Put the generator pods on different hosts (at most one more on any host than on another),"
          + " in addition to spec.scheduling.")
  private Boolean spreadAcrossNodes;

  @JsonPropertyDescription("Limits the verdict checks; an absent threshold is not checked.")
  private Thresholds thresholds;

  @JsonPropertyDescription(
      "Where the load generator pods may run, e.g. away from the dht nodes it measures. With"
          + " affinity unset and a clusterRef, the operator sets a preferred pod anti-affinity"
          + " (weight 100) for hosts without the cluster's nodes; a set affinity is used as it"
          + " is.")
  private Scheduling scheduling;

  @SchemaFrom(type = KubernetesSchemas.ResourceRequirements.class)
  @JsonPropertyDescription(
      "CPU/memory of the load generator; default: requests 500m CPU and 256Mi, limit 512Mi, no"
          + " CPU limit (throttling would show up as latency).")
  private ResourceRequirements resources;

  /** A DhtCluster in the load test's namespace. */
  @Data
  @Builder(toBuilder = true)
  @NoArgsConstructor
  @AllArgsConstructor
  public static class ClusterRef {
    @Required
    @Pattern("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")
    @JsonPropertyDescription("Name of the DhtCluster.")
    private String name;
  }

  /** Request mix and keys. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @Data
  @Builder(toBuilder = true)
  @NoArgsConstructor
  @AllArgsConstructor(access = AccessLevel.PRIVATE)
  public static class Workload {
    @Default("put")
    @JsonPropertyDescription("put, get or mixed.")
    @Builder.Default
    private Operation operation = Operation.PUT;

    @Min(0)
    @Max(1)
    @JsonPropertyDescription("Share of GETs in a mixed workload; default 0.5.")
    private Double readRatio;

    @Default("100000")
    @Min(1)
    @JsonPropertyDescription("Number of distinct keys.")
    @Builder.Default
    private Long keyspace = 100_000L;

    @Pattern("^[A-Za-z0-9._~-]{1,100}$")
    @JsonPropertyDescription(
        "Keys are <keyPrefix><n>. Default: <test name>-<first 8 characters of its uid>-, unique to"
            + " this test, so that a load test never overwrites other keys; name the keyPrefix of"
            + " an earlier put test to GET its keys.")
    private String keyPrefix;

    @Default("100")
    @Min(0)
    @Max(16777216)
    @JsonPropertyDescription("PUT body size in bytes.")
    @Builder.Default
    private Integer valueSize = 100;

    @Default("uniform")
    @JsonPropertyDescription("uniform, or zipfian (a few hot keys).")
    @Builder.Default
    private KeyDistribution keyDistribution = KeyDistribution.UNIFORM;
  }

  /** The load generator's --workload values. */
  public enum Operation {
    @JsonProperty("put")
    PUT,
    @JsonProperty("get")
    GET,
    @JsonProperty("mixed")
    MIXED;

    public String cliName() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** The load generator's --distribution values. */
  public enum KeyDistribution {
    @JsonProperty("uniform")
    UNIFORM,
    @JsonProperty("zipfian")
    ZIPFIAN;

    public String cliName() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** Regression limits against the baseline, in percent; an absent one is not checked. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @Data
  @Builder(toBuilder = true)
  @NoArgsConstructor
  @AllArgsConstructor(access = AccessLevel.PRIVATE)
  public static class Regression {
    @Min(0)
    @JsonPropertyDescription("p50 may be at most this many percent above the baseline's.")
    private Double p50Percent;

    @Min(0)
    @JsonPropertyDescription("p99 may be at most this many percent above the baseline's.")
    private Double p99Percent;

    @Min(0)
    @JsonPropertyDescription("p99.9 may be at most this many percent above the baseline's.")
    private Double p999Percent;

    @Min(0)
    @Max(100)
    @JsonPropertyDescription(
        "The achieved rate may be at most this many percent below the baseline's.")
    private Double achievedRatePercent;

    public boolean any() {
      return p50Percent != null
          || p99Percent != null
          || p999Percent != null
          || achievedRatePercent != null;
    }
  }

  /** Pass/fail limits of the verdict. */
  @Data
  @Builder(toBuilder = true)
  @NoArgsConstructor
  @AllArgsConstructor(access = AccessLevel.PRIVATE)
  public static class Thresholds {
    @Min(0)
    @JsonPropertyDescription("Largest acceptable 99th percentile latency, in ms.")
    private Double p99Ms;

    @Min(0)
    @JsonPropertyDescription("Largest acceptable 99.9th percentile latency, in ms.")
    private Double p999Ms;

    @Min(0)
    @Max(1)
    @JsonPropertyDescription("Largest acceptable (transport errors + non-2xx answers) / requests.")
    private Double maxErrorRatio;

    @JsonPropertyDescription(
        "Stop the generators as soon as p99Ms, p999Ms or maxErrorRatio can no longer be met by"
            + " the whole run, whatever the rest of it does (e.g. more than 1% of the requests the"
            + " test will measure already took longer than p99Ms); the test then fails with reason"
            + " Aborted.")
    private Boolean abortOnFail;

    @JsonPropertyDescription(
        "Largest acceptable regressions against spec.baseline, in percent: latencies may grow by"
            + " at most that much, the achieved rate may drop by at most that much.")
    private Regression regression;
  }
}
