package dev.dht.operator.loadtest.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.dht.operator.bounded.ReadLimit;
import dev.dht.operator.loadtest.job.LoadTestModel;
import dev.dht.operator.scaling.NodeAccess;
import dev.dht.operator.scaling.NodeAdmin;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Collects the flame graphs the profiled nodes made of a run's measured window (their {@code GET
 * /v0/admin/profile/<event>.html}), waiting a bounded while for a node still converting. Asked on
 * the nodes' admin port as the operator reaches it for everything else ({@link NodeAdmin}: with the
 * cluster secret, over TLS trusting the cluster's CA on a TLS cluster). Blocking, with short
 * timeouts: it runs on a reconciler thread once per finished test.
 */
public final class FlameGraphs {
  private static final Duration TIMEOUT = Duration.ofSeconds(5);
  private static final Duration WAIT_FOR_DONE = Duration.ofSeconds(30);

  /**
   * A flame graph: async-profiler's HTML of a busy node over a long profile is 0.2 to 2 MiB; 16 MiB
   * leaves room for deep stacks, and is what the report site unpacks of an artifact ({@link
   * Artifacts#MAX_ARTIFACT_BYTES}). 15 s is 1 MiB/s, slower than any cluster network.
   */
  static final ReadLimit FLAME_GRAPH =
      new ReadLimit("a node's flame graph", Artifacts.MAX_ARTIFACT_BYTES, Duration.ofSeconds(15));

  /** The profile's state ({@code GET /v0/admin/profile}): a few hundred bytes of JSON. */
  static final ReadLimit PROFILE_STATE =
      new ReadLimit("a node's profile state", 64 * 1024, TIMEOUT);

  /**
   * What was collected, what could not be (with why), and what profiling cost each node (its CPU
   * per request during the profile against the seconds before, as the node measured it).
   */
  public record Collected(
      List<Artifacts.Artifact> artifacts, List<String> missing, List<String> overhead) {}

  private static final ObjectMapper JSON = new ObjectMapper();

  private final NodeAdmin admin;

  public FlameGraphs(NodeAdmin admin) {
    this.admin = admin;
  }

  /** The flame graphs of the profiled nodes, reached with {@code access} (admin GETs). */
  public Collected collect(LoadTestModel.Profiling profiling, NodeAccess access) {
    var artifacts = new ArrayList<Artifacts.Artifact>();
    var missing = new ArrayList<String>();
    var overhead = new ArrayList<String>();
    for (String node : profiling.nodes()) {
      String pod = LoadTestModel.Profiling.podOf(node);
      JsonNode profile = awaitDone(node, access);
      String state = profile.path("state").asText("unknown");
      if (profile.has("overhead")) {
        overhead.add(pod + ": " + overhead(profile.get("overhead")));
      }
      if (!"done".equals(state)) {
        missing.add("flame graphs of " + pod + ": its profile is " + state);
        continue;
      }
      for (String event : profiling.events().split(",")) {
        try {
          var html = admin.get(node, "profile/" + event + ".html", access, FLAME_GRAPH);
          if (html.status() == 200) {
            artifacts.add(
                new Artifacts.Artifact(
                    "flame-" + pod + "-" + event + ".html", "text/html", html.body()));
          } else {
            missing.add("flame graph " + pod + " " + event + ": " + html.status());
          }
        } catch (IOException | RuntimeException e) { // an unreadable CA bundle, a bad URL
          missing.add("flame graph " + pod + " " + event + ": " + e.getMessage());
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return new Collected(artifacts, missing, overhead);
        }
      }
    }
    return new Collected(List.copyOf(artifacts), List.copyOf(missing), List.copyOf(overhead));
  }

  /** The node's measurement of what its profile cost, in words. Pure. */
  static String overhead(JsonNode o) {
    if (o.has("unmeasured")) {
      return "not measured (" + o.path("unmeasured").asText() + ")";
    }
    double change = o.path("changePercent").asDouble();
    return String.format(
        java.util.Locale.ROOT,
        "%+.1f%% CPU per request while profiled (%.4f ms, against %.4f ms in the seconds before;"
            + " %d and %d requests)",
        change,
        o.path("cpuMsPerRequestDuring").asDouble(),
        o.path("cpuMsPerRequestBefore").asDouble(),
        o.path("requestsDuring").asLong(),
        o.path("requestsBefore").asLong());
  }

  /**
   * The node's profile state ({@code GET /v0/admin/profile}) once it is no longer running, or after
   * the bounded wait; {@code {"state": "unreachable (why)"}} if the node did not answer.
   */
  private JsonNode awaitDone(String node, NodeAccess access) {
    Instant deadline = Instant.now().plus(WAIT_FOR_DONE);
    JsonNode state = JSON.createObjectNode().put("state", "unreachable");
    while (Instant.now().isBefore(deadline)) {
      try {
        var answer = admin.get(node, "profile", access, PROFILE_STATE);
        state = answer.status() == 200 ? JSON.readTree(answer.text()) : state;
        if (!"running".equals(state.path("state").asText())) {
          return state;
        }
        Thread.sleep(500);
      } catch (IOException | RuntimeException e) {
        return JSON.createObjectNode().put("state", "unreachable (" + e.getMessage() + ")");
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return state;
      }
    }
    return state;
  }
}
