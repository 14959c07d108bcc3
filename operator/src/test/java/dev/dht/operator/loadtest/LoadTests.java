package dev.dht.operator.loadtest;

import dev.dht.operator.cluster.DhtCluster;
import dev.dht.operator.cluster.DhtClusterSpec;
import dev.dht.operator.cluster.DhtClusterStatus;
import dev.dht.operator.policy.ChartPolicy;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStateTerminatedBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobConditionBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;

/**
 * DhtLoadTest and DhtCluster objects for tests, as the apiserver holds them after defaulting; the
 * load generator's Job and container as Kubernetes reports them.
 */
public final class LoadTests {
  /** A run's results: 100,000 requests without errors, at {@code rate}, with these latencies. */
  public static DhtLoadTestStatus.Results results(
      double rate, double p50, double p99, double p999, double max) {
    var r = new DhtLoadTestStatus.Results();
    r.setRequests(100_000L);
    r.setErrors(0L);
    r.setNon2xx(0L);
    r.setNotFound(0L);
    r.setAchievedRate(rate);
    r.setLatencyMs(new DhtLoadTestStatus.Latency(p50, p50 * 2, p99, p999, max));
    return r;
  }

  /** The results of a baseline run: 10,000/s, p99 10 ms. */
  public static final DhtLoadTestStatus.Results BASELINE = results(10_000, 1.0, 10.0, 27.8, 80.0);

  public static final String IMAGE = "local/dht-node:test";

  /** The chart's policy with the targetUrls these tests use allowed. */
  public static final ChartPolicy POLICY =
      ChartPolicy.of(
          List.of("http://10.1.2.3:8080", "http://dht.example:8080"), List.of(), List.of());

  private LoadTests() {}

  public static DhtLoadTest test(String name, String clusterName) {
    var test = new DhtLoadTest();
    test.setMetadata(
        new ObjectMetaBuilder()
            .withName(name)
            .withNamespace("ns")
            .withUid("uid-" + name)
            .withGeneration(1L)
            .build());
    var spec = new DhtLoadTestSpec();
    spec.setClusterRef(new DhtLoadTestSpec.ClusterRef(clusterName));
    spec.setRate(10_000);
    test.setSpec(spec);
    return test;
  }

  public static DhtCluster cluster(String name, boolean ready) {
    var cluster = new DhtCluster();
    cluster.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace("ns").build());
    cluster.setSpec(new DhtClusterSpec());
    cluster.setStatus(clusterStatus(ready));
    return cluster;
  }

  /** What the cluster operator writes: a Ready condition, True or False. */
  public static DhtClusterStatus clusterStatus(boolean ready) {
    var status = new DhtClusterStatus();
    status.setConditions(
        List.of(
            new ConditionBuilder()
                .withType("Ready")
                .withStatus(ready ? "True" : "False")
                .withReason(ready ? "AllReplicasReady" : "ReplicasNotReady")
                .withMessage(ready ? "3/3 replicas ready" : "1/3 replicas ready")
                .withLastTransitionTime(Instant.now().toString().substring(0, 19) + "Z")
                .build()));
    return status;
  }

  public static String resource(String name) {
    try (var in = LoadTests.class.getResourceAsStream("/loadtest/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A real termination message of the load generator (a mixed run on a busy machine). */
  public static String terminationMessage() {
    return resource("termination-message.json").strip();
  }

  /** A real pod log: progress lines on stderr, then the wrk2 report on stdout. */
  public static String podLog() {
    return resource("loadgen-pod.log");
  }

  /** A load generator Job as the Job controller reports it; no condition: running. */
  public static Job job(String conditionType, String reason, String message) {
    var builder =
        new JobBuilder()
            .withNewMetadata()
            .withName("t-loadgen")
            .endMetadata()
            .withNewStatus()
            .withStartTime("2026-11-22T10:00:00Z");
    if (conditionType != null) {
      builder
          .addToConditions(
              new JobConditionBuilder()
                  .withType(conditionType)
                  .withStatus("True")
                  .withReason(reason)
                  .withMessage(message)
                  .withLastTransitionTime("2026-11-22T10:01:15Z")
                  .build())
          .withCompletionTime("Complete".equals(conditionType) ? "2026-11-22T10:01:14Z" : null);
    }
    return builder.endStatus().build();
  }

  /** The load generator container's terminated state, as the kubelet reports it. */
  public static ContainerStateTerminated terminated(int exitCode, String reason, String message) {
    return new ContainerStateTerminatedBuilder()
        .withExitCode(exitCode)
        .withReason(reason)
        .withMessage(message)
        .build();
  }
}
