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

  @Test
  void aStreamsFilesHoldExactlyItsKeysAndGoOnAfterTheLastOne() {
    java.util.Map<String, Topology.State> states = new java.util.LinkedHashMap<>();
    states.put("http://a:1", Topology.State.NORMAL);
    states.put("http://b:1", Topology.State.JOINING);
    var keys =
        SharedKeys.pulledBy(Topology.of(2, states, false, "http://a:1"), "http://b:1", 1, true);
    try (Storage source = new Storage(dir.resolve("a"), 1 << 20);
        Storage receiver = new Storage(dir.resolve("b"), 1 << 20)) {
      for (int k = 0; k < 10_000; k++) {
        source.putIfNewer(bytes("k" + k), Record.value(1 + k, new byte[100]));
      }
      byte[] start = new byte[0];
      int files = 0;
      while (true) {
        Path file = receiver.transferDir().resolve("f" + files + ".sst");
        byte[] last = RepairScans.writeFile(source, keys, start, 64 << 10, file, () -> false);
        if (last == null) {
          assertThat(file).as("no file when no key is left").doesNotExist();
          break;
        }
        files++;
        receiver.ingestIfNewer(file, (key, record) -> true);
        start = RepairApi.after(last);
      }
      assertThat(files).as("cut by size (after the scan batch that passes it)").isGreaterThan(1);
      int moved = 0;
      for (int k = 0; k < 10_000; k++) {
        Record got = receiver.get(bytes("k" + k));
        assertThat(got != null).as("k" + k).isEqualTo(keys.contains(bytes("k" + k)));
        moved += got == null ? 0 : 1;
      }
      assertThat(moved).as("b owns about half of the keys after").isBetween(4000, 6000);
    }
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
