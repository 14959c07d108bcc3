package dev.dht.node.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Streams between nodes that move files and nodes that do not ({@code --stream-files=false}, as
 * nodes before files): three members at from=2, one of them without files, grow to five. The joiner
 * with files takes files from two members and falls back to digests and entries with the third; the
 * joiner without files pulls key by key from all. After the clean-up every key has its two copies,
 * each with the value written.
 */
class MixedStreamProcessTest {
  private static final int KEYS = 3000;

  @TempDir Path root;

  @Test
  void joinersWithAndWithoutFilesEachGetTheirWholeShare() throws Exception {
    Map<String, String> old = Map.of("DHT_STREAM_FILES", "false");
    try (Membership cluster = new Membership(root, 5)) {
      cluster.publish(1, false, "normal", "normal", "normal", null, null);
      String[] flags = cluster.flags("--default-from", "2", "--repair-interval-s", "0");
      cluster.start(0, old, flags);
      cluster.start(1, flags);
      cluster.start(2, flags);
      for (int k = 0; k < KEYS; k++) {
        assertThat(cluster.node(k % 3).client().put("m-" + k, "v" + k, 2, 2).status())
            .isEqualTo(201);
      }
      cluster.start(3, flags); // not listed yet: they wait
      cluster.start(4, old, flags);
      cluster.publish(2, false, "normal", "normal", "normal", "joining", "joining");
      cluster.awaitEpoch(2, 0, 1, 2, 3, 4);
      cluster.stream(2, 3, 4);
      assertThat(cluster.status(3).getJsonObject("stream").getLong("keysReceived"))
          .as("the joiner with files")
          .isPositive();
      assertThat(cluster.status(4).getJsonObject("stream").getLong("keysReceived"))
          .as("the joiner without")
          .isPositive();
      cluster.publish(3, true, "normal", "normal", "normal", "joining", "joining");
      cluster.awaitEpoch(3, 0, 1, 2, 3, 4);
      cluster.publish(4, false, "normal", "normal", "normal", "normal", "normal");
      cluster.awaitEpoch(4, 0, 1, 2, 3, 4);
      cluster.cleanup(4, 0, 1, 2, 3, 4);

      assertThat(cluster.copies(0, 1, 2, 3, 4)).as("copies after the clean-up").isEqualTo(2 * KEYS);
      for (int k = 0; k < KEYS; k += 7) {
        var got = cluster.node(k % 5).client().get("m-" + k, 2, 2);
        assertThat(got.status()).isEqualTo(200);
        assertThat(new String(got.body(), StandardCharsets.UTF_8)).isEqualTo("v" + k);
      }
    }
  }
}
