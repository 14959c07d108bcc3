package dev.dht.node.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node joins three at from=2 and streams its share from them in the order of their URLs. The
 * first two are down, so their streams fail; the node is killed while it receives from the third.
 * Restarted (with the other two back), its stream resumes: it must pull from the two that failed
 * again, not skip them as if done, or the keys only they held would be missing from it and, after
 * the clean-up, would have fewer than 2 copies.
 */
class StreamResumeProcessTest {
  private static final int KEYS = 4000;

  /** Values that do not compress, so that a stream's file takes its time at the paced rate. */
  private static String value(int k) {
    var random = new java.util.Random(k);
    var hex = new StringBuilder();
    while (hex.length() < 4000) {
      hex.append(Long.toHexString(random.nextLong()));
    }
    return hex.toString();
  }

  @TempDir Path root;

  @Test
  void aResumedStreamPullsAgainFromThePeersThatFailedAndEveryKeyKeepsFromCopies() throws Exception {
    try (Membership cluster = new Membership(root, 4)) {
      List<Integer> byUrl =
          IntStream.range(0, 3).boxed().sorted(Comparator.comparing(cluster.urls()::get)).toList();
      int firstFailed = byUrl.get(0);
      int secondFailed = byUrl.get(1);
      int interrupted = byUrl.get(2);
      cluster.publish(1, false, "normal", "normal", "normal", null);
      String[] flags =
          cluster.flags(
              "--default-from", "2", "--repair-interval-s", "0", "--request-timeout-ms", "3000");
      for (int i = 0; i < 3; i++) {
        cluster.start(i, flags);
      }
      for (int k = 0; k < KEYS; k++) {
        assertThat(cluster.node(k % 3).client().put("s-" + k, value(k), 2, 2).status())
            .isEqualTo(201);
      }
      String[] slow = cluster.flags("--default-from", "2", "--repair-bytes-per-s", "2000000");
      cluster.start(3, slow); // not listed yet: it waits
      cluster.publish(2, false, "normal", "normal", "normal", "joining");
      cluster.awaitEpoch(2, 0, 1, 2, 3);

      cluster.node(firstFailed).kill();
      cluster.node(secondFailed).kill();
      cluster.admin("stream", 3);
      String third = cluster.urls().get(interrupted);
      await("receiving from the third peer")
          .atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofMillis(20))
          .until(() -> {
            JsonObject stream = cluster.status(3).getJsonObject("stream");
            return third.equals(stream.getString("peer")) && stream.getLong("keysReceived") > 0;
          });
      cluster.node(3).kill();

      cluster.start(firstFailed, flags); // on the data they had
      cluster.start(secondFailed, flags);
      cluster.start(3, slow);
      cluster.awaitEpoch(2, 0, 1, 2, 3);
      cluster.stream(2, 3);
      cluster.publish(3, true, "normal", "normal", "normal", "joining");
      cluster.awaitEpoch(3, 0, 1, 2, 3);
      cluster.publish(4, false, "normal", "normal", "normal", "normal");
      cluster.awaitEpoch(4, 0, 1, 2, 3);
      cluster.cleanup(4, 0, 1, 2, 3);

      assertThat(cluster.copies(0, 1, 2, 3)).as("copies after the clean-up").isEqualTo(2 * KEYS);
    }
  }
}
