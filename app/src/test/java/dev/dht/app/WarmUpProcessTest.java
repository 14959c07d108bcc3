package dev.dht.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.node.it.DhtClient;
import dev.dht.node.it.NodeProcess;
import dev.dht.node.it.Ports;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node started with {@code --warm-up-s} runs its training load before it listens, and leaves
 * nothing of it behind: no scratch files, no keys in its store. Then it serves as any node.
 */
class WarmUpProcessTest {
  @TempDir Path root;

  @Test
  void aNodeWarmsUpBeforeItServesAndKeepsNothingOfIt() throws Exception {
    Path scratch = Files.createDirectories(root.resolve("tmp"));
    try (NodeProcess node =
        NodeProcess.start(
            root.resolve("data"),
            Ports.free(),
            List.of(),
            "256m",
            Map.of("JDK_JAVA_OPTIONS", "-Djava.io.tmpdir=" + scratch),
            "--warm-up-s=6",
            "--warm-up-rate=300")) {
      String log = node.log();
      assertThat(log).contains("warmed up in");
      // the training nodes' own traffic happened before this node opened its port
      assertThat(log.indexOf("warmed up in"))
          .isLessThan(log.lastIndexOf("serving plain HTTP on ports"));
      try (var left = Files.list(scratch)) { // (RocksDB's and Vert.x's own files stay)
        assertThat(left.map(p -> p.getFileName().toString()))
            .noneMatch(name -> name.startsWith("dht-warm-up"));
      }
      assertThat(node.entries()).isEmpty();

      var client = new DhtClient(node.port());
      assertThat(client.put("k", "v").status()).isEqualTo(201);
      assertThat(client.get("k").text()).isEqualTo("v");
      assertThat(node.entries()).containsExactly(Map.entry("k", "v"));
    }
  }
}
