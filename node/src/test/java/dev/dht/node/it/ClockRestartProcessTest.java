package dev.dht.node.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.node.cluster.HybridClock;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node restarted with its clock set back 10 s (libfaketime) never issues a timestamp lower than
 * one it issued before, and every timestamp carries the node's id (its position in the members).
 * The maximum clock offset is 20 s, so that the node does not fence itself for its clock.
 */
class ClockRestartProcessTest {
  private static final Path LIBFAKETIME =
      Path.of("/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1");

  @TempDir Path root;

  @Test
  void aNodeRestartedWithItsClockSetBackNeverIssuesOlderTimestamps() throws Exception {
    assertThat(LIBFAKETIME).as("libfaketime (make test installs the faketime package)").exists();
    List<NodeProcess> nodes =
        NodeProcess.startCluster(
            root, "128m", List.of(Map.of(), Map.of()), "--max-clock-offset-ms", "20000");
    NodeProcess second = nodes.get(1);
    try {
      long before = 0;
      second.awaitWritesReach(2); // the new processes' first connections
      for (int k = 0; k < 50; k++) {
        DhtClient.Reply put = second.client().put("before-" + k, "v", 2, 2);
        assertThat(put.status()).as("%s", put).isEqualTo(201);
      }
      for (int k = 0; k < 50; k++) {
        before = Math.max(before, second.stored("before-" + k).timestamp());
      }
      assertThat(before & HybridClock.MAX_NODE_ID).as("node id of member 1").isEqualTo(1);
      assertThat(second.terminate(20)).as("exit code").isNotNegative();

      second =
          second.restart(
              Map.of(
                  "LD_PRELOAD", LIBFAKETIME.toString(),
                  "FAKETIME", "-10s",
                  "DONT_FAKE_MONOTONIC", "1",
                  "FAKETIME_FORCE_MONOTONIC_FIX", "0")); // else the JVM's timed waits spin
      nodes.set(1, second);
      second.awaitWritesReach(2); // the new process's first connections
      for (int k = 0; k < 50; k++) {
        assertThat(second.client().put("after-" + k, "v", 2, 2).status()).isEqualTo(201);
        assertThat(second.stored("after-" + k).timestamp())
            .as("timestamp %d after the restart", k)
            .isGreaterThan(before);
      }
    } finally {
      nodes.forEach(NodeProcess::close);
    }
  }
}
