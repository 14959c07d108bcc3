package dev.dht.node.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A member removed from the cluster keeps its data directory (a claim kept by a scale-down); keys
 * it held are deleted and the tombstones purged by the remaining members; then it is added back on
 * that old directory. It must not bring a deleted value back: it finds that its peers purged past
 * its data, drops the data and takes its share from the others. Repair every second, tombstones
 * kept at least 3 s, hints 1 s.
 */
class ReturningVolumeProcessTest {
  private static final int KEYS = 100;

  @TempDir Path root;

  @Test
  void aRemovedMembersOldVolumeAddedBackBringsNoDeletedValueBack() throws Exception {
    try (Membership cluster = new Membership(root, 3)) {
      cluster.publish(1, false, "normal", "normal", "normal");
      String[] flags =
          cluster.flags(
              "--default-from",
              "3",
              "--repair-interval-s",
              "1",
              "--tombstone-grace-s",
              "3",
              "--hint-window-s",
              "1");
      for (int i = 0; i < 3; i++) {
        cluster.start(i, flags);
      }
      for (int k = 0; k < KEYS; k++) {
        assertThat(cluster.node(0).client().put("gone-" + k, "old", 3, 3).status()).isEqualTo(201);
      }
      await("node 2 completed a repair run")
          .until(() ->
              cluster.status(2).getJsonObject("tombstones").getLong("repairedSinceMillis") > 0);
      cluster.node(2).close();
      cluster.publish(2, false, "normal", "normal", null); // removed (its keys are on the others)
      cluster.awaitEpoch(2, 0, 1);
      for (int k = 0; k < KEYS; k++) {
        assertThat(cluster.node(k % 2).client().delete("gone-" + k, 2, 2).status()).isEqualTo(202);
      }
      await("the others purged the tombstones")
          .atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofMillis(500))
          .until(() ->
              cluster.node(0).stored("gone-0") == null && cluster.node(1).stored("gone-0") == null);

      cluster.publish(3, false, "normal", "normal", "joining");
      cluster.awaitEpoch(3, 0, 1);
      cluster.start(2, flags); // on its old data directory
      cluster.awaitEpoch(3, 2);
      await("node 2 checked its data") // until then it starts no stream (409), like the operator
          // sees
          .atMost(Duration.ofSeconds(30))
          .until(() ->
              !cluster.status(2).getJsonObject("bootstrap").getString("phase").equals("checking"));
      cluster.stream(3, 2);
      cluster.publish(4, false, "normal", "normal", "normal");
      cluster.awaitEpoch(4, 0, 1, 2);
      Thread.sleep(3000); // repair runs everywhere

      int resurrected = 0;
      for (int k = 0; k < KEYS; k++) {
        for (int i = 0; i < 3; i++) {
          resurrected += cluster.node(i).client().get("gone-" + k, 1, 3).status() == 404 ? 0 : 1;
        }
        resurrected += cluster.node(2).stored("gone-" + k) == null ? 0 : 1;
      }
      assertThat(resurrected).as("deleted values read or held again").isZero();
      assertThat(cluster.status(2).getJsonObject("bootstrap").getString("phase"))
          .isEqualTo("serving");
    }
  }
}
