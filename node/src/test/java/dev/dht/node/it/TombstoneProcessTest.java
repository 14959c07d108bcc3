package dev.dht.node.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three node processes, repair every 1–2 s, tombstones kept at least 3–12 s, hints kept 1 s only
 * (so that repair alone must deliver the deletes). One node is down while keys are deleted at 2/3,
 * then rejoins with the old values: repair gives it the tombstones, and then no replica holds a
 * tombstone or a value for those keys, and none comes back, even when the node was away for longer
 * than the grace period.
 */
class TombstoneProcessTest {
  private static final int KEYS = 100;

  @TempDir Path root;

  @Test
  void deletesArePurgedEverywhereAndNeverComeBackEvenFromAReplicaThatMissedThem() throws Exception {
    List<NodeProcess> nodes = deletedWhileNode2IsDown(2, 12);
    try {
      assertThat(nodes.get(0).stored("gone-0").tombstone()).isTrue();
      Thread.sleep(1500); // the hints for node 2 expire
      NodeProcess rejoined = nodes.get(2).restart(Map.of());
      nodes.set(2, rejoined);
      assertThat(rejoined.stored("gone-0").tombstone()).as("it missed the delete").isFalse();

      await("every replica purged every tombstone")
          .atMost(Duration.ofSeconds(45))
          .pollInterval(Duration.ofMillis(500))
          .until(() -> nodes.stream().allMatch(TombstoneProcessTest::holdsNothing));
      Thread.sleep(4000); // two more repair runs everywhere
      for (NodeProcess node : nodes) {
        assertThat(holdsNothing(node)).as("node on port %d", node.port()).isTrue();
        for (int k = 0; k < KEYS; k++) {
          assertThat(node.client().get("gone-" + k, 3, 3).status()).isEqualTo(404);
          assertThat(node.client().get("gone-" + k, 1, 3).status()).isEqualTo(404);
        }
        assertThat(MetricsText.of(node.client()).value("dht_tombstones_purged_total", ""))
            .isPositive();
      }
    } finally {
      nodes.forEach(NodeProcess::close);
    }
  }

  @Test
  void aReplicaAwayForLongerThanTheGracePeriodBringsNoDeletedValueBack() throws Exception {
    List<NodeProcess> nodes = deletedWhileNode2IsDown(1, 3);
    try {
      Thread.sleep(6000); // twice the grace: the others repair (failing to reach it) every second
      assertThat(nodes.get(0).stored("gone-0"))
          .as("a tombstone that node 2 never received is kept")
          .isNotNull();
      nodes.set(2, nodes.get(2).restart(Map.of()));

      await("every replica purged every tombstone")
          .atMost(Duration.ofSeconds(45))
          .pollInterval(Duration.ofMillis(500))
          .until(() -> nodes.stream().allMatch(TombstoneProcessTest::holdsNothing));
      for (NodeProcess node : nodes) {
        for (int k = 0; k < KEYS; k++) {
          assertThat(node.client().get("gone-" + k, 1, 3).status())
              .as("key %d on port %d", k, node.port())
              .isEqualTo(404);
        }
      }
    } finally {
      nodes.forEach(NodeProcess::close);
    }
  }

  /**
   * Three nodes (hints kept 1 s), the keys written at 3/3, then node 2 killed and the keys deleted
   * at 2/3 through the others.
   */
  private List<NodeProcess> deletedWhileNode2IsDown(int repairSeconds, int graceSeconds)
      throws InterruptedException {
    List<NodeProcess> nodes =
        NodeProcess.startCluster(
            root,
            "128m",
            List.of(Map.of(), Map.of(), Map.of()),
            "--repair-interval-s",
            Integer.toString(repairSeconds),
            "--tombstone-grace-s",
            Integer.toString(graceSeconds),
            "--hint-window-s",
            "1");
    try {
      for (int k = 0; k < KEYS; k++) {
        DhtClient.Reply put = nodes.get(0).client().put("gone-" + k, "old", 3, 3);
        assertThat(put.status()).as("PUT gone-%d: %s", k, put.text()).isEqualTo(201);
      }
      nodes.get(2).kill();
      for (int k = 0; k < KEYS; k++) {
        DhtClient.Reply delete = nodes.get(k % 2).client().delete("gone-" + k, 2, 3);
        assertThat(delete.status()).as("DELETE gone-%d: %s", k, delete.text()).isEqualTo(202);
      }
      return nodes;
    } catch (RuntimeException | AssertionError | InterruptedException e) {
      nodes.forEach(NodeProcess::close);
      throw e;
    }
  }

  private static boolean holdsNothing(NodeProcess node) {
    for (int k = 0; k < KEYS; k++) {
      if (node.stored("gone-" + k) != null) {
        return false;
      }
    }
    return true;
  }
}
