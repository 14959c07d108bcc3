package dev.dht.operator.loadtest.profile;

import dev.dht.operator.bounded.ReadLimit;
import dev.dht.operator.cluster.AdminAccess;
import dev.dht.operator.cluster.Transport;
import dev.dht.operator.loadtest.DhtLoadTest;
import dev.dht.operator.loadtest.DhtLoadTestStatus;
import dev.dht.operator.loadtest.job.LoadTestModel.Profiling;
import dev.dht.operator.loadtest.job.Target;
import dev.dht.operator.scaling.NodeAccess;
import dev.dht.operator.scaling.NodeAdmin;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;

/**
 * Asks a load test's profiled nodes to profile themselves ({@code POST
 * /v0/admin/profile?events=..&seconds=..}) on their admin port, as the operator reaches it for
 * everything else ({@link NodeAdmin}: with the cluster secret, over TLS trusting the cluster's CA
 * on a TLS cluster). All nodes at once, each call bounded; a node that does not start only costs
 * its flame graphs, never the run.
 */
public final class ProfiledNodes {
  /** The answer to a profile request: a line of text. */
  static final ReadLimit STARTED =
      new ReadLimit("a node's answer to a profile request", 16 * 1024, Duration.ofSeconds(5));

  /** What a node's answer may put into the status, at most. */
  static final int MAX_REASON = 200;

  private static final Executor POOL = Executors.newVirtualThreadPerTaskExecutor();

  private final NodeAdmin admin;

  public ProfiledNodes(NodeAdmin admin) {
    this.admin = admin;
  }

  /**
   * How to reach the admin port of the nodes of {@code test}'s cluster, which {@code target}
   * resolved: a target with the cluster's CA is a TLS cluster.
   */
  public static NodeAccess access(KubernetesClient client, DhtLoadTest test, Target target) {
    return AdminAccess.of(
        client,
        test.getMetadata().getNamespace(),
        test.getSpec().getClusterRef().getName(),
        target.caSecretName() != null ? Transport.Tls : Transport.Plain);
  }

  /** Asks every node of {@code profiling} to profile for {@code seconds}: what came of it. */
  public DhtLoadTestStatus.ProfileRun start(
      Profiling profiling, NodeAccess access, long seconds, Instant now) {
    String what = "profile?events=" + profiling.events() + "&seconds=" + seconds;
    Map<String, CompletableFuture<String>> asked = new LinkedHashMap<>();
    for (String node : profiling.nodes()) {
      asked.put(node, CompletableFuture.supplyAsync(() -> ask(node, what, access), POOL));
    }
    List<String> started = new ArrayList<>();
    List<String> notStarted = new ArrayList<>();
    asked.forEach((node, answer) -> {
      String pod = Profiling.podOf(node);
      String refused = answer.join();
      if (refused == null) {
        started.add(pod);
      } else {
        notStarted.add(pod + ": " + refused);
      }
    });
    return DhtLoadTestStatus.ProfileRun.builder()
        .startedAt(now.toString())
        .seconds(seconds)
        .nodes(started)
        .notStarted(notStarted)
        .build();
  }

  /** Null if the node started the profile (202); else why not. */
  private String ask(String node, String what, NodeAccess access) {
    try {
      var answer = admin.post(node, what, access, STARTED);
      return answer.status() == 202
          ? null
          : answer.status() + " " + shortened(answer.text().strip());
    } catch (IOException | RuntimeException e) { // an unreadable CA bundle, a bad URL
      return "not reached (" + shortened(String.valueOf(e.getMessage())) + ")";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "not asked (interrupted)";
    }
  }

  private static String shortened(String text) {
    String line = text.lines().findFirst().orElse("");
    return line.length() <= MAX_REASON ? line : line.substring(0, MAX_REASON) + "...";
  }
}
