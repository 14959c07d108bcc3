package dev.dht.node.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.UncheckedIOException;
import java.net.http.HttpRequest.BodyPublishers;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * API.md §7: SIGTERM stops a node process gracefully within 10 s (exit 0, or 143 = 128+SIGTERM,
 * after the shutdown hook closed RocksDB), and a restart on the same data directory serves every
 * write acknowledged before, including those acknowledged while the signal arrived.
 */
class GracefulStopProcessTest {
  @TempDir Path root;

  @Test
  void sigtermStopsWithin10sAndARestartServesEveryAcknowledgedWrite() throws Exception {
    Path data = root.resolve("node");
    int port = Ports.free();
    List<String> acknowledged = new CopyOnWriteArrayList<>();
    NodeProcess node = NodeProcess.start(data, port, "64m");
    try {
      assertThat(node.client().put("empty-before-stop", new byte[0]).status()).isEqualTo(201);
      assertThat(node.client().put("deleted-before-stop", "v").status()).isEqualTo(201);
      assertThat(node.client().delete("deleted-before-stop").status()).isEqualTo(202);

      // a writer keeps going while the signal arrives; whatever got 201 must survive
      AtomicBoolean stop = new AtomicBoolean();
      Thread writer =
          Thread.ofPlatform()
              .start(() -> {
                for (int i = 0; !stop.get(); i++) {
                  try {
                    if (node.client().put("k" + i, "value-" + i).status() == 201) {
                      acknowledged.add("k" + i);
                    }
                  } catch (UncheckedIOException | IllegalStateException e) {
                    return; // the node went away
                  }
                }
              });
      while (acknowledged.size() < 200 && writer.isAlive()) {
        Thread.sleep(10);
      }
      int exit = node.terminate(10);
      stop.set(true);
      writer.join(30_000);

      assertThat(exit)
          .as("exit code within 10 s (-1: still running); log:\n%s", node.log())
          .isIn(0, 143);
      assertThat(node.log()).contains("node stopped");
    } finally {
      node.close();
    }

    assertThat(acknowledged).hasSizeGreaterThanOrEqualTo(200);
    // the restart runs in this JVM (same flags, same data directory): quicker than a process
    try (LocalCluster restarted = LocalCluster.onDataDir(data, port)) {
      DhtClient client = restarted.client(0);
      for (String key : acknowledged) {
        DhtClient.Reply get = client.get(key);
        assertThat(get.status()).as(key).isEqualTo(200);
        assertThat(get.text()).isEqualTo("value-" + key.substring(1));
      }
      assertThat(client.get("empty-before-stop").status()).isEqualTo(200);
      assertThat(client.get("empty-before-stop").body()).isEmpty();
      assertThat(client.get("deleted-before-stop").status()).isEqualTo(404);
    }
  }

  /**
   * With a shutdown delay, a node says it is not ready as soon as SIGTERM arrives while it still
   * serves, so a load balancer stops routing to it before its listener closes.
   */
  @Test
  void readinessTurnsFalseAtSigtermBeforeTheListenerCloses() throws Exception {
    NodeProcess node =
        NodeProcess.start(
            root.resolve("delayed"), Ports.free(), "64m", "--shutdown-delay-ms", "3000");
    try {
      assertThat(ready(node)).isEqualTo(200);
      node.signalTerm();
      await("not ready after SIGTERM")
          .atMost(Duration.ofSeconds(3))
          .pollInterval(Duration.ofMillis(20))
          .until(() -> ready(node) == 503);
      assertThat(node.client().send("GET", "/v0/status", BodyPublishers.noBody()).status())
          .as("still serving while not ready")
          .isEqualTo(200);
      assertThat(node.client().put("during-drain", "v").status()).isEqualTo(201);
      assertThat(node.awaitExit(15)).as(node.log()).isIn(0, 143);
    } finally {
      node.close();
    }
  }

  private static int ready(NodeProcess node) {
    return node.client().send("GET", "/health/ready", BodyPublishers.noBody()).status();
  }
}
