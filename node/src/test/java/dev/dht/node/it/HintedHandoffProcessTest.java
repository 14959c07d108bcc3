package dev.dht.node.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.dht.node.storage.Record;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three node processes; one is killed (SIGKILL) while the others take 20 s of writes at 2/3, then
 * restarted. Its peers kept hints of every write it missed and replay them: within 30 s its own
 * replica holds the newest value of every key, and ack=1 reads through it return it. Anti-entropy
 * repair is off here, so only the hints can do it.
 */
class HintedHandoffProcessTest {
  private static final int KEYS = 1000;
  private static final long WRITE_MS = 20_000;

  @TempDir Path root;

  @Test
  void aNodeThatWasDownGetsEveryWriteItMissedFromHints() throws Exception {
    List<NodeProcess> nodes =
        NodeProcess.startCluster(
            root, "128m", List.of(Map.of(), Map.of(), Map.of()), "--repair-interval-s", "0");
    try {
      for (NodeProcess node : nodes) {
        node.client().put("warm-up", "w", 1, 3);
      }
      nodes.get(2).kill();
      Map<String, String> newest = new HashMap<>();
      long end = System.nanoTime() + WRITE_MS * 1_000_000;
      for (int n = 0; System.nanoTime() < end; n++) {
        String key = "hint-" + (n % KEYS);
        String value = "v" + n;
        DhtClient.Reply reply = nodes.get(n % 2).client().put(key, value, 2, 3);
        if (reply.status() == 201) {
          newest.put(key, value);
        }
      }
      assertThat(newest).as("keys written while node 2 was down").hasSize(KEYS);
      assertThat(MetricsText.of(nodes.get(0).client()).value("dht_hints_pending", "target"))
          .as("hints node 0 holds for node 2")
          .isPositive();

      NodeProcess restarted = nodes.get(2).restart(Map.of());
      nodes.set(2, restarted);
      await("node 2's own replica holds every newest value")
          .atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofMillis(500))
          .until(() -> stale(restarted, newest) == 0);
      for (Map.Entry<String, String> e : newest.entrySet()) {
        DhtClient.Reply reply = restarted.client().get(e.getKey(), 1, 3);
        assertThat(reply.status()).as(e.getKey()).isEqualTo(200);
        assertThat(reply.text()).as(e.getKey()).isEqualTo(e.getValue());
      }
      for (NodeProcess node : nodes.subList(0, 2)) {
        MetricsText metrics = MetricsText.of(node.client());
        assertThat(metrics.value("dht_hints_pending", "target")).isZero();
        assertThat(metrics.value("dht_hints_replayed_total", "")).isPositive();
      }
    } finally {
      nodes.forEach(NodeProcess::close);
    }
  }

  private static long stale(NodeProcess node, Map<String, String> newest) {
    return newest.entrySet().stream()
        .filter(e -> {
          Record stored = node.stored(e.getKey());
          return stored == null
              || stored.tombstone()
              || !new String(stored.valueBytes(), StandardCharsets.UTF_8).equals(e.getValue());
        })
        .count();
  }
}
