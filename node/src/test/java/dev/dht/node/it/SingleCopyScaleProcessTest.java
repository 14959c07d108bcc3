package dev.dht.node.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two node processes at from=1 (one copy of each key) grown to three the way the operator drives
 * it. The new node must stream the keys it will own from their one holder: after the clean-up, each
 * holder keeps only what it owns, so a key the stream skipped would be gone.
 */
class SingleCopyScaleProcessTest {
  private static final int KEYS = 300;

  @TempDir Path root;

  @Test
  void growingAClusterWithOneCopyOfEachKeyLosesNone() throws Exception {
    try (Membership cluster = new Membership(root, 3)) {
      cluster.publish(1, false, "normal", "normal", null);
      String[] flags = cluster.flags("--default-from", "1", "--repair-interval-s", "0");
      cluster.start(0, flags);
      cluster.start(1, flags);
      for (int k = 0; k < KEYS; k++) {
        assertThat(cluster.node(k % 2).client().put("one-" + k, "v" + k, 1, 1).status())
            .isEqualTo(201);
      }
      cluster.start(2, flags); // not listed yet: it waits
      cluster.publish(2, false, "normal", "normal", "joining");
      cluster.awaitEpoch(2, 0, 1, 2);
      cluster.stream(2, 0, 1, 2);
      cluster.publish(3, true, "normal", "normal", "joining");
      cluster.awaitEpoch(3, 0, 1, 2);
      cluster.publish(4, false, "normal", "normal", "normal");
      cluster.awaitEpoch(4, 0, 1, 2);
      cluster.cleanup(4, 0, 1, 2);

      assertThat(cluster.copies(0, 1, 2)).as("copies after the clean-up").isEqualTo(KEYS);
      int missing = 0;
      for (int k = 0; k < KEYS; k++) {
        missing += cluster.node(k % 3).client().get("one-" + k, 1, 1).status() == 200 ? 0 : 1;
      }
      assertThat(missing).as("keys no longer readable").isZero();
      assertThat(cluster.copies(2)).as("the new node holds its share").isPositive();
    }
  }
}
