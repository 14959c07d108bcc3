package dev.dht.node.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three node processes, one of them with its clock 400 ms behind (libfaketime), within the maximum
 * clock offset of 500 ms (further off, it fences itself: {@link ClockFenceProcessTest}). A write
 * that starts after another write to the same key was acknowledged must win, even when it goes
 * through the node whose clock is behind. The first write goes to two replicas only: where the node
 * behind is not one of them, it has not seen that write's timestamp, so its replicas report the
 * newer version and its write is stamped again.
 */
class ClockSkewProcessTest {
  private static final Path LIBFAKETIME =
      Path.of("/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1");
  private static final int KEYS = 300;

  @TempDir Path root;

  @Test
  void aWriteAcknowledgedLaterWinsThroughACoordinatorWhoseClockIsBehind() {
    assertThat(LIBFAKETIME).as("libfaketime (make test installs the faketime package)").exists();
    Map<String, String> behindWithinTheMaximumOffset =
        Map.of(
            "LD_PRELOAD", LIBFAKETIME.toString(),
            "FAKETIME", "-0.4",
            "DONT_FAKE_MONOTONIC", "1",
            "FAKETIME_FORCE_MONOTONIC_FIX", "0"); // else the JVM's timed waits spin
    List<NodeProcess> nodes =
        NodeProcess.startCluster(
            root,
            "128m",
            List.of(Map.of(), Map.of(), behindWithinTheMaximumOffset),
            "--request-timeout-ms",
            "3000");
    try {
      DhtClient normal = nodes.get(0).client();
      DhtClient behind = nodes.get(2).client();
      for (NodeProcess node : nodes) { // connections between the new processes: not measured
        node.client().put("warm-up", "w", 1, 3);
      }
      for (int k = 0; k < KEYS; k++) {
        assertThat(normal.put("skew-" + k, "v1", 2, 2).status()).as("v1 of %d", k).isEqualTo(201);
        DhtClient.Reply v2 = behind.put("skew-" + k, "v2", 2, 3);
        assertThat(v2.status()).as("v2 of %d: %s", k, v2.text()).isEqualTo(201);
      }
      for (int ack : new int[] {2, 3}) {
        int stale = 0;
        for (int k = 0; k < KEYS; k++) {
          DhtClient.Reply reply = nodes.get(k % 2).client().get("skew-" + k, ack, 3);
          assertThat(reply.status()).isEqualTo(200);
          stale += reply.text().equals("v1") ? 1 : 0;
        }
        assertThat(stale).as("keys reading the older write at %d/3", ack).isZero();
      }
      assertThat(MetricsText.of(behind).value("dht_writes_stamped_again_total", ""))
          .as("writes the skewed coordinator stamped again")
          .isPositive();
    } finally {
      nodes.forEach(NodeProcess::close);
    }
  }
}
