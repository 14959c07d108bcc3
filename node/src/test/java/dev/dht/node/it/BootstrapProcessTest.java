package dev.dht.node.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.dht.contract.AdminStatus;
import java.io.IOException;
import java.net.http.HttpRequest.BodyPublishers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A replica that lost its disk answers no read before it has pulled its data from every peer. With
 * v1 on all three replicas and v2 acknowledged on two of them, one of those two wiped and the other
 * down, a 2/3 read must not answer v1 or 404 (before nodes bootstrapped, it did: the wiped
 * replica's "no such key" counted toward the quorum); 504 is the honest answer until the missing
 * holder is back and the wiped replica has pulled from it.
 */
class BootstrapProcessTest {
  private static final int KEYS = 40;

  @TempDir Path root;

  @Test
  void aWipedReplicaAnswersNoReadBeforeItHasPulledFromEveryPeer() throws Exception {
    List<NodeProcess> nodes =
        NodeProcess.startCluster(
            root,
            "128m",
            List.of(Map.of(), Map.of(), Map.of()),
            "--repair-interval-s",
            "0",
            "--request-timeout-ms",
            "3000");
    try {
      for (int k = 0; k < KEYS; k++) {
        assertThat(nodes.get(k % 3).client().put(key(k), "v1", 3, 3).status()).isEqualTo(201);
      }
      nodes.get(2).kill();
      for (int k = 0; k < KEYS; k++) {
        assertThat(nodes.get(0).client().put(key(k), "v2", 2, 3).status()).isEqualTo(201);
      }
      nodes.get(1).kill();
      delete(nodes.get(1).dataDir());
      nodes.get(0).kill();
      nodes.set(2, nodes.get(2).restart(Map.of())); // on its own data: v1
      nodes.set(1, nodes.get(1).restartLive()); // empty, and node 0 holds v2

      Map<Integer, Integer> statuses = new TreeMap<>();
      for (int round = 0; round < 3; round++) {
        for (int k = 0; k < KEYS; k++) {
          for (int n = 1; n <= 2; n++) {
            var reply = nodes.get(n).client().get(key(k), 2, 3);
            statuses.merge(reply.status(), 1, Integer::sum);
            if (reply.status() == 200) {
              assertThat(reply.text()).as("%s through node %d", key(k), n).isEqualTo("v2");
            }
          }
        }
      }
      assertThat(statuses).as("statuses of 2/3 reads").containsOnlyKeys(504);
      assertThat(bootstrap(nodes.get(1)).phase()).isEqualTo("bootstrapping");
      assertThat(health(nodes.get(1))).as("not Ready while bootstrapping").isEqualTo(503);
      long epoch =
          AdminStatus.fromJson(
                  nodes
                      .get(1)
                      .client()
                      .send("GET", "/v0/admin/status", BodyPublishers.noBody())
                      .text())
              .epoch();
      DhtClient.Reply stream =
          nodes
              .get(1)
              .client()
              .send(
                  "POST",
                  "/internal/v0/repair/files?peer=http://127.0.0.1:"
                      + nodes.get(2).port()
                      + "&from=3&stream="
                      + epoch,
                  BodyPublishers.noBody(),
                  Map.of(
                      dev.dht.node.replication.InternalApi.SECRET_HEADER,
                      NodeProcess.CLUSTER_SECRET));
      assertThat(stream.status()).as("no keys handed over from partial data").isEqualTo(503);
      assertThat(stream.text()).contains("rebuilding");

      nodes.set(0, nodes.get(0).restart(Map.of()));
      await("the wiped replica pulled from every peer")
          .atMost(Duration.ofSeconds(60))
          .until(() -> health(nodes.get(1)) == 200);
      assertThat(bootstrap(nodes.get(1)).phase()).isEqualTo("serving");
      for (int k = 0; k < KEYS; k++) {
        for (int n = 0; n < 3; n++) {
          var reply = nodes.get(n).client().get(key(k), 2, 3);
          assertThat(reply.status()).as("%s through node %d", key(k), n).isEqualTo(200);
          assertThat(reply.text()).isEqualTo("v2");
        }
      }
      assertThat(nodes.get(1).entries())
          .hasSize(KEYS)
          .containsValue("v2")
          .doesNotContainValue("v1");
    } finally {
      nodes.forEach(NodeProcess::close);
    }
  }

  @Test
  void aNewClusterServesAtOnce() throws Exception {
    List<NodeProcess> nodes =
        NodeProcess.startCluster(root, "128m", List.of(Map.of(), Map.of(), Map.of()));
    try {
      for (var node : nodes) {
        await("every node of a new cluster serves reads")
            .atMost(Duration.ofSeconds(10))
            .until(() -> bootstrap(node).serving());
        assertThat(bootstrap(node).heldDataSinceMillis()).isEqualTo(-1);
      }
      var put = nodes.get(0).client().put("new", "v", 3, 3);
      assertThat(put.status()).as("%s", put).isEqualTo(201);
      assertThat(nodes.get(1).client().get("new", 3, 3).text()).isEqualTo("v");
      assertThat(bootstrap(nodes.get(2)).heldDataSinceMillis()).isPositive();
    } finally {
      nodes.forEach(NodeProcess::close);
    }
  }

  private static String key(int k) {
    return "boot-" + k;
  }

  private static AdminStatus.Bootstrap bootstrap(NodeProcess node) {
    return AdminStatus.fromJson(
            node.client().send("GET", "/v0/admin/status", BodyPublishers.noBody()).text())
        .bootstrap();
  }

  private static int health(NodeProcess node) {
    return node.client().send("GET", "/health/ready", BodyPublishers.noBody()).status();
  }

  private static void delete(Path dir) throws IOException {
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
