package dev.dht.node.hints;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.node.storage.Record;
import dev.dht.node.storage.Storage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HintStoreTest {
  @TempDir Path dir;

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void theHintsOfARemovedMemberAreDroppedAndNoOthers() {
    try (Storage storage = new Storage(dir, 1 << 20)) {
      HintStore store =
          new HintStore(storage, Runnable::run, () -> 1000, 10_000, 1 << 20, (t, c) -> {});
      for (int i = 0; i < 5000; i++) { // more than one batch
        store.add("http://gone:1", bytes("k" + i), Record.value(1, bytes("v")));
      }
      store.add("http://gone:10", bytes("k"), Record.value(1, bytes("v"))); // shares a prefix
      assertThat(store.dropFor("http://gone:1")).isEqualTo(5000);
      assertThat(store.pendingByTarget()).isEqualTo(Map.of("http://gone:10", 1L));
      assertThat(store.oldest("http://gone:1", 10, 1 << 20)).isEmpty();
      assertThat(store.dropped()).isEqualTo(5000);
    }
  }

  @Test
  void hintsSurviveAReopenExpireAfterTheWindowAndAreBoundedInSize() {
    AtomicLong wall = new AtomicLong(1_000_000);
    try (Storage storage = new Storage(dir, 1 << 20)) {
      HintStore store =
          new HintStore(storage, Runnable::run, wall::get, 10_000, 1 << 20, (t, c) -> {});
      store.add("http://b:1", bytes("k1"), Record.value(1, bytes("v1")));
      wall.addAndGet(5_000);
      store.add("http://b:1", bytes("k2"), Record.value(2, bytes("v2")));
      store.add("http://c:1", bytes("k3"), Record.tombstone(3));
      assertThat(store.pendingByTarget()).isEqualTo(Map.of("http://b:1", 2L, "http://c:1", 1L));
    }
    try (Storage storage = new Storage(dir, 1 << 20)) {
      HintStore store =
          new HintStore(storage, Runnable::run, wall::get, 10_000, 1 << 20, (t, c) -> {});
      assertThat(store.pendingByTarget()).isEqualTo(Map.of("http://b:1", 2L, "http://c:1", 1L));
      wall.addAndGet(6_000); // k1 is 11 s old, past the 10 s window; k2 is 6 s old
      var live = store.oldest("http://b:1", 10, 1 << 20);
      assertThat(live)
          .extracting(h -> new String(h.key(), StandardCharsets.UTF_8))
          .containsExactly("k2");
      assertThat(store.expired()).isEqualTo(1);
      store.replayed(live);
      assertThat(store.pendingByTarget()).isEqualTo(Map.of("http://c:1", 1L));
      assertThat(store.replayed()).isEqualTo(1);

      HintStore small = new HintStore(storage, Runnable::run, wall::get, 10_000, 200, (t, c) -> {});
      for (int i = 0; i < 10; i++) {
        small.add("http://d:1", bytes("k" + i), Record.value(9, new byte[50]));
      }
      assertThat(small.dropped()).isPositive();
      assertThat(small.storedBytes()).isLessThanOrEqualTo(200);
    }
  }
}
