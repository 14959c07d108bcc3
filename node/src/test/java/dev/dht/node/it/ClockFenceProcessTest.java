package dev.dht.node.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.http.HttpRequest.BodyPublishers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three node processes; the clock of the third jumps while it runs (libfaketime reads its offset
 * from a file the test rewrites). A node whose clock is out by more than the maximum clock offset
 * fences itself: its writes fail honestly instead of shadowing later ones, no write is acknowledged
 * that {@code ack} replicas did not store, and it is not Ready until its clock is back.
 */
class ClockFenceProcessTest {
  private static final Path LIBFAKETIME =
      Path.of("/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1");
  private static final int KEYS = 100;

  @TempDir Path root;

  @Test
  void aNodeWhoseClockJumpsAheadFencesItselfAndLaterWritesStayVisible() throws Exception {
    Path offset = root.resolve("faketime");
    List<NodeProcess> nodes = startWithMovableClock(offset);
    try {
      NodeProcess jumped = nodes.get(2);
      jump(offset, "+120s");
      for (int k = 0; k < KEYS; k++) {
        DhtClient.Reply early = jumped.client().put("ahead-" + k, "early", 2, 3);
        assertThat(early.status() / 100)
            .as("the jumped node's write of %d: %s", k, early)
            .isNotEqualTo(2);
        int later = nodes.get(k % 2).client().put("ahead-" + k, "later", 2, 3).status();
        assertThat(later).as("a later write of %d through a good node", k).isEqualTo(201);
      }
      int stale = 0;
      for (int k = 0; k < KEYS; k++) {
        DhtClient.Reply reply = nodes.get((k + 1) % 2).client().get("ahead-" + k, 2, 3);
        assertThat(reply.status()).as("read of %d", k).isEqualTo(200);
        stale += reply.text().equals("later") ? 0 : 1;
      }
      assertThat(stale).as("of %d acknowledged later writes, hidden at 2/3", KEYS).isZero();

      await("the jumped node fences itself")
          .atMost(Duration.ofSeconds(10))
          .pollInterval(Duration.ofMillis(100))
          .until(() -> ready(jumped).status() == 503);
      assertThat(ready(jumped).text()).contains("clock");
      assertThat(MetricsText.of(jumped.client()).value("dht_clock_fenced", "")).isEqualTo(1);
      assertThat(MetricsText.of(jumped.client()).value("dht_clock_offset_ms", ""))
          .isGreaterThan(100_000);
      DhtClient.Reply refused = jumped.client().put("while-fenced", "v", 2, 3);
      assertThat(refused.status()).isEqualTo(503);
      assertThat(refused.text()).contains("clock");
      assertThat(adminStatus(jumped)).contains("\"fenced\":true");
      assertThat(ready(nodes.get(0)).status()).as("a good node stays Ready").isEqualTo(200);

      jump(offset, "+0s");
      await("the node comes back once its clock is")
          .atMost(Duration.ofSeconds(10))
          .pollInterval(Duration.ofMillis(100))
          .until(() -> ready(jumped).status() == 200);
      assertThat(MetricsText.of(jumped.client()).value("dht_clock_fenced", "")).isZero();
      assertThat(jumped.client().put("after", "v", 2, 3).status()).isEqualTo(201);
    } finally {
      nodes.forEach(NodeProcess::close);
    }
  }

  @Test
  void aCoordinatorFarBehindAcknowledgesNoWriteItDidNotStore() throws Exception {
    Path offset = root.resolve("faketime");
    List<NodeProcess> nodes = startWithMovableClock(offset);
    try {
      NodeProcess behind = nodes.get(2);
      jump(offset, "-90s");
      int acknowledgedThenMissing = 0;
      for (int k = 0; k < KEYS; k++) {
        assertThat(nodes.get(0).client().put("behind-" + k, "v1", 2, 3).status()).isEqualTo(201);
        int status = behind.client().put("behind-" + k, "v2", 2, 3).status();
        if (status / 100 == 2) {
          DhtClient.Reply read = nodes.get(k % 2).client().get("behind-" + k, 2, 3);
          acknowledgedThenMissing += read.text().equals("v2") ? 0 : 1;
        } else {
          assertThat(status).as("a write the node far behind did not store").isIn(503, 504);
        }
      }
      assertThat(acknowledgedThenMissing).as("writes acknowledged but not read back").isZero();
    } finally {
      nodes.forEach(NodeProcess::close);
    }
  }

  /** Three nodes; the third's clock is offset by what {@code offset} holds (+0s at start). */
  private List<NodeProcess> startWithMovableClock(Path offset) throws IOException {
    assertThat(LIBFAKETIME).as("libfaketime (make test installs the faketime package)").exists();
    Files.writeString(offset, "+0s\n");
    Map<String, String> movable =
        Map.of(
            "LD_PRELOAD",
            LIBFAKETIME.toString(),
            "FAKETIME_TIMESTAMP_FILE",
            offset.toString(),
            "FAKETIME_CACHE_DURATION",
            "1",
            "DONT_FAKE_MONOTONIC",
            "1",
            "FAKETIME_FORCE_MONOTONIC_FIX", // else the JVM's timed waits spin, and it crawls
            "0");
    List<NodeProcess> nodes =
        NodeProcess.startCluster(
            root, "128m", List.of(Map.of(), Map.of(), movable), "--request-timeout-ms", "2000");
    for (NodeProcess node : nodes) { // the new processes' first connections, and clock samples
      node.client().put("warm-up", "w", 1, 3);
    }
    return nodes;
  }

  /**
   * Sets the third node's clock offset, and waits until it is seen: libfaketime re-reads the file
   * once its cache of 1 s expired, counted in whole seconds, so within 2 s.
   */
  private static void jump(Path offset, String to) throws Exception {
    Files.writeString(offset, to + "\n");
    Thread.sleep(2500);
  }

  private static DhtClient.Reply ready(NodeProcess node) {
    return node.client().send("GET", "/health/ready", BodyPublishers.noBody());
  }

  private static String adminStatus(NodeProcess node) {
    return node.client()
        .send(
            "GET",
            "/v0/admin/status",
            BodyPublishers.noBody(),
            Map.of(dev.dht.node.replication.InternalApi.SECRET_HEADER, NodeProcess.CLUSTER_SECRET))
        .text();
  }
}
