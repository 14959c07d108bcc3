package dev.dht.node.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A rolling upgrade from nodes that send and take HTTP batches only ({@code --peer-frames=false},
 * as every node before frames) to nodes that speak frames, one SIGTERM and restart at a time, under
 * a writer at ack=2 of from=3 that uses the nodes not being restarted: no write fails, and every
 * acknowledged write reads back with its value. New nodes send old ones HTTP batches, and frames
 * once both ends speak them.
 */
class MixedPeerProtocolProcessTest {
  @TempDir Path root;

  @Test
  void aRollingUpgradeToFramesUnderAWriterFailsNoWrite() throws Exception {
    Map<String, String> old = Map.of("DHT_PEER_FRAMES", "false");
    List<NodeProcess> nodes =
        new ArrayList<>(NodeProcess.startCluster(root, "128m", List.of(old, old, old)));
    AtomicInteger down = new AtomicInteger(-1);
    AtomicBoolean stop = new AtomicBoolean();
    Map<String, String> acknowledged = new ConcurrentHashMap<>();
    List<String> failures = new ArrayList<>();
    try {
      Thread writer =
          Thread.ofPlatform()
              .start(() -> {
                for (int i = 0; !stop.get(); i++) {
                  int node = i % 3;
                  if (node == down.get()) {
                    continue;
                  }
                  String key = "k" + i;
                  try {
                    int status = nodes.get(node).client().put(key, "v" + i, 2, 3).status();
                    if (status == 201) {
                      acknowledged.put(key, "v" + i);
                    } else {
                      synchronized (failures) {
                        failures.add(key + " via node " + node + ": " + status);
                      }
                    }
                  } catch (UncheckedIOException | IllegalStateException e) {
                    synchronized (failures) {
                      failures.add(key + " via node " + node + ": " + e);
                    }
                  }
                }
              });
      Thread.sleep(1000);
      for (int i = 0; i < 3; i++) {
        down.set(i);
        Thread.sleep(200); // as a Service stops sending to a pod that is asked to stop
        assertThat(nodes.get(i).terminate(10)).isIn(0, 143);
        nodes.set(i, nodes.get(i).restart(Map.of()));
        down.set(-1);
        Thread.sleep(1500);
      }
      stop.set(true);
      writer.join(30_000);

      assertThat(failures).isEmpty();
      assertThat(acknowledged).hasSizeGreaterThan(300);
      for (var write : acknowledged.entrySet()) {
        var read = nodes.get(write.getKey().hashCode() & 1).client().get(write.getKey(), 2, 3);
        assertThat(read.status()).as(write.getKey()).isEqualTo(200);
        assertThat(read.text()).as(write.getKey()).isEqualTo(write.getValue());
      }
      // the first node upgraded sent its old peers HTTP batches; the last one, frames to new ones
      assertThat(
              MetricsText.of(nodes.get(0).client()).value("dht_peer_batches_total", "via=\"http\""))
          .isPositive();
      assertThat(
              MetricsText.of(nodes.get(2).client())
                  .value("dht_peer_batches_total", "via=\"frames\""))
          .isPositive();
    } finally {
      stop.set(true);
      nodes.forEach(NodeProcess::close);
    }
  }
}
