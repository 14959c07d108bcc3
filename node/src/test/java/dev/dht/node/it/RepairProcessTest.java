package dev.dht.node.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.dht.contract.AdminStatus;
import dev.dht.node.cluster.Topology;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Five node processes at from=3. One loses its data directory and comes back empty: by the time it
 * serves reads, its bootstrap (one repair run that reached every peer) has brought every key it
 * owns, with the values its peers hold, counted through its own range reads (its replica alone).
 * Scheduled repair and hints are off, so only the bootstrap can do it (a hint of a write that timed
 * out on the loaded box would otherwise refill one key first).
 */
class RepairProcessTest {
  private static final int KEYS = 2000;

  @TempDir Path root;

  @Test
  void aNodeWhoseDiskWasWipedRegainsEveryKeyItOwnsBeforeItServesReads() throws Exception {
    List<NodeProcess> nodes =
        NodeProcess.startCluster(
            root,
            "128m",
            IntStream.range(0, 5).mapToObj(i -> Map.<String, String>of()).toList(),
            "--default-from",
            "3",
            "--repair-interval-s",
            "0",
            "--hint-window-s",
            "0");
    try {
      List<String> members = nodes.stream().map(n -> "http://127.0.0.1:" + n.port()).toList();
      Topology placement = Topology.of(members, members.get(4));
      Map<String, String> owned = new TreeMap<>();
      for (int k = 0; k < KEYS; k++) {
        String key = "repair-" + k;
        String value = "value-" + k + "-" + "x".repeat(k % 50);
        assertThat(nodes.get(k % 4).client().put(key, value).status()).isEqualTo(201);
        int[] replicas = placement.replicas(key.getBytes(StandardCharsets.UTF_8), 3);
        if (Arrays.stream(replicas).anyMatch(r -> r == placement.selfIndex())) {
          owned.put(key, value);
        }
      }
      assertThat(owned).hasSizeBetween(KEYS / 2, KEYS * 3 / 4);

      NodeProcess wiped = nodes.get(4);
      wiped.kill();
      delete(wiped.dataDir());
      wiped = wiped.restart(Map.of());
      nodes.set(4, wiped);
      NodeProcess restarted = wiped;
      await("the wiped node pulled from every peer")
          .atMost(Duration.ofSeconds(60))
          .until(() ->
              AdminStatus.fromJson(
                      restarted
                          .client()
                          .send("GET", "/v0/admin/status", HttpRequest.BodyPublishers.noBody())
                          .text())
                  .bootstrap()
                  .serving());

      JsonObject status = wiped.repairStatus();
      assertThat(status.getLong("runs")).as("%s", status).isEqualTo(1);
      assertThat(status.getLong("failedRuns")).as("%s", status).isZero();
      assertThat(status.getLong("keysReceived")).isEqualTo(owned.size());
      assertThat(wiped.entries()).isEqualTo(owned);
      for (Map.Entry<String, String> e : owned.entrySet()) {
        for (int replica : placement.replicas(e.getKey().getBytes(StandardCharsets.UTF_8), 3)) {
          assertThat(
                  new String(
                      nodes.get(replica).stored(e.getKey()).valueBytes(), StandardCharsets.UTF_8))
              .as("%s on node %d", e.getKey(), replica)
              .isEqualTo(e.getValue());
        }
      }
      assertThat(wiped.repair(60).getLong("bucketsDiffering"))
          .as("a second run finds nothing to do")
          .isZero();
    } finally {
      nodes.forEach(NodeProcess::close);
    }
  }

  private static void delete(Path dir) throws IOException {
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
