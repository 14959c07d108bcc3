package dev.dht.node.repair;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dht.node.cluster.Topology;
import dev.dht.node.storage.Record;
import dev.dht.node.storage.Storage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RepairScansTest {
  private static final List<String> TWO = List.of("http://a:1", "http://b:1");

  @TempDir Path dir;

  @Test
  void aDigestScanStopsOnceItsPeerIsGone() {
    try (Storage storage = new Storage(dir, 1 << 20)) {
      for (int k = 0; k < 10_000; k++) {
        storage.putIfNewer(
            ("k" + k).getBytes(StandardCharsets.UTF_8), Record.value(1, new byte[1]));
      }
      var keys = SharedKeys.pulledBy(Topology.of(TWO, "http://a:1"), "http://b:1", 2, false);
      AtomicInteger checks = new AtomicInteger();
      assertThatThrownBy(
              () -> RepairScans.digests(storage, keys, () -> checks.incrementAndGet() > 1))
          .isInstanceOf(RepairScans.AbandonedException.class);
      assertThat(checks.get()).as("given up after the second batch, not at the end").isEqualTo(2);
      assertThat(RepairScans.digests(storage, keys, () -> false).encode())
          .isEqualTo(RepairScans.digests(storage, keys).encode());
    }
  }
}
