package dev.dht.node.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StorageTest {
  @TempDir Path dir;

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void keepsTheNewerVersionWhateverTheArrivalOrder() {
    try (Storage storage = new Storage(dir, 1 << 20)) {
      assertThat(storage.putIfNewer(bytes("k"), Record.value(20, bytes("new")))).isTrue();
      assertThat(storage.putIfNewer(bytes("k"), Record.value(10, bytes("old")))).isFalse();
      assertThat(storage.putIfNewer(bytes("k"), Record.tombstone(15))).isFalse();
      assertThat(storage.get(bytes("k")).valueBytes()).containsExactly(bytes("new"));
      assertThat(storage.putIfNewer(bytes("k"), Record.tombstone(30))).isTrue();
      assertThat(storage.get(bytes("k")).tombstone()).isTrue();
      assertThat(storage.get(bytes("never"))).isNull();
    }
  }

  @Test
  void droppingTheDataDeletesEveryRecordAndKeepsTheNodesFacts() {
    try (Storage storage = new Storage(dir, 1 << 20)) {
      storage.dropData(); // nothing to drop
      storage.putIfNewer(bytes("a"), Record.value(10, bytes("1")));
      storage.putIfNewer(new byte[] {(byte) 0xff, (byte) 0xff}, Record.tombstone(11));
      storage.putMeta(bytes("fact"), bytes("kept"));
      storage.dropData();
      assertThat(storage.get(bytes("a"))).isNull();
      assertThat(storage.get(new byte[] {(byte) 0xff, (byte) 0xff})).isNull();
      assertThat(storage.getMeta(bytes("fact"))).containsExactly(bytes("kept"));
      assertThat(storage.putIfNewer(bytes("a"), Record.value(5, bytes("after")))).isTrue();
    }
  }

  @Test
  void aBatchKeepsTheNewestVersionOfEachKeyEvenWithinTheBatch() {
    try (Storage storage = new Storage(dir, 1 << 20)) {
      storage.putIfNewer(bytes("old"), Record.value(50, bytes("stored")));
      Record[] kept =
          storage.putAllIfNewer(
              List.of(bytes("k"), bytes("k"), bytes("k"), bytes("old"), bytes("new")),
              List.of(
                  Record.value(2, bytes("two")),
                  Record.value(3, bytes("three")),
                  Record.value(1, bytes("one")),
                  Record.value(40, bytes("older")),
                  Record.tombstone(7)));
      assertThat(kept[0]).isNull();
      assertThat(kept[1]).isNull();
      assertThat(kept[2].valueBytes()).containsExactly(bytes("three"));
      assertThat(kept[3].valueBytes()).containsExactly(bytes("stored"));
      assertThat(kept[4]).isNull();
      assertThat(storage.get(bytes("k")).valueBytes()).containsExactly(bytes("three"));
      assertThat(storage.get(bytes("old")).valueBytes()).containsExactly(bytes("stored"));
      assertThat(storage.get(bytes("new")).tombstone()).isTrue();
    }
  }

  @Test
  void theNewestVersionWinsAcrossAReopenAndFromMemory() {
    try (Storage storage = new Storage(dir, 1 << 20)) {
      storage.putIfNewer(bytes("k"), Record.value(5, bytes("five")));
      storage.putIfNewer(bytes("k"), Record.value(9, bytes("nine")));
    }
    try (Storage storage = new Storage(dir, 1 << 20)) {
      storage.putIfNewer(bytes("k"), Record.value(7, bytes("seven"))); // late and older: loses
      storage.putIfNewer(bytes("t"), Record.tombstone(3));
      assertThat(storage.get(bytes("k")).valueBytes()).containsExactly(bytes("nine"));
      assertThat(storage.getIfInMemory(bytes("k")).valueBytes()).containsExactly(bytes("nine"));
      assertThat(storage.getIfInMemory(bytes("t")).tombstone()).isTrue();
      assertThat(storage.getIfInMemory(bytes("never"))).isNull();
    }
  }

  @Test
  void survivesAReopen() {
    try (Storage storage = new Storage(dir, 1 << 20)) {
      storage.putIfNewer(bytes("k"), Record.value(1, bytes("v")));
    }
    try (Storage storage = new Storage(dir, 1 << 20)) {
      assertThat(storage.get(bytes("k")).valueBytes()).containsExactly(bytes("v"));
    }
  }

  @Test
  void rangeIsOrderedBoundedAndSkipsTombstones() {
    try (Storage storage = new Storage(dir, 1 << 20)) {
      for (String key : List.of("b", "a", "d", "c", "\u00e9", "e")) {
        storage.putIfNewer(bytes(key), Record.value(1, bytes("v" + key)));
      }
      storage.putIfNewer(bytes("c"), Record.tombstone(2));
      try (RangeCursor cursor = storage.range(bytes("b"), bytes("\u00e9"))) {
        List<String> keys =
            cursor.next(100, 1 << 20).stream()
                .map(e -> new String(e.key(), StandardCharsets.UTF_8))
                .toList();
        assertThat(keys).containsExactly("b", "d", "e");
        assertThat(cursor.next(100, 1 << 20)).isEmpty();
      }
      try (RangeCursor cursor = storage.range(bytes("a"), null)) {
        assertThat(cursor.next(2, 1 << 20)).hasSize(2);
        assertThat(cursor.next(100, 1 << 20)).hasSize(3); // d, e, é (UTF-8 0xC3 sorts last)
      }
    }
  }

  @Test
  void callsAfterCloseFailInsteadOfCrashing() {
    Storage storage = new Storage(dir, 1 << 20);
    RangeCursor cursor = storage.range(bytes("a"), null);
    storage.close();
    assertThat(cursor.next(10, 1024)).isEmpty();
    assertThatThrownBy(() -> storage.get(bytes("k"))).isInstanceOf(StorageException.class);
  }

  @Test
  void tombstonesPastTheHorizonAreNotKeptAndArePurgedOnlyIfUnchanged() {
    long[] horizon = {100};
    try (Storage storage = new Storage(dir, 1 << 20, () -> horizon[0])) {
      storage.putIfNewer(bytes("old-delete"), Record.value(10, bytes("v")));
      assertThat(storage.putIfNewer(bytes("old-delete"), Record.tombstone(50))).isTrue();
      assertThat(storage.get(bytes("old-delete"))).as("deleted, no tombstone kept").isNull();

      storage.putIfNewer(bytes("young"), Record.tombstone(150));
      storage.putIfNewer(bytes("rewritten"), Record.tombstone(120));
      horizon[0] = 200;
      storage.putIfNewer(bytes("rewritten"), Record.value(190, bytes("back")));
      int purged =
          storage.purge(
              List.of(bytes("young"), bytes("rewritten")),
              List.of(Record.tombstone(150), Record.tombstone(120)));
      assertThat(purged).isEqualTo(1);
      assertThat(storage.get(bytes("young"))).isNull();
      assertThat(storage.get(bytes("rewritten")).valueBytes()).containsExactly(bytes("back"));
    }
  }

  @Test
  void aCleanupRemovesWhatItReadUnlessItWasWrittenSince() {
    try (Storage storage = new Storage(dir, 1 << 20)) {
      storage.putAllIfNewer(
          List.of(bytes("a"), bytes("b"), bytes("c"), bytes("e")),
          List.of(
              Record.value(1, bytes("1")),
              Record.value(1, bytes("1")),
              Record.tombstone(1),
              Record.value(1, bytes("1"))));
      try (WriteWatch since = storage.watchWrites(1 << 20)) {
        storage.putIfNewer(bytes("d"), Record.value(2, bytes("2"))); // then read as d=2
        List<byte[]> keys = List.of(bytes("a"), bytes("b"), bytes("c"), bytes("d"), bytes("e"));
        List<Record> read =
            List.of(
                Record.value(1, bytes("1")),
                Record.value(1, bytes("1")),
                Record.tombstone(1),
                Record.value(2, bytes("2")),
                Record.value(7, bytes("as read"))); // not what is stored: e is not read again
        storage.putIfNewer(bytes("b"), Record.value(2, bytes("2"))); // after the read
        assertThat(since.lost()).isFalse();

        assertThat(storage.removeIfUnchanged(keys, read, since)).isEqualTo(4);
      }
      assertThat(storage.get(bytes("a"))).isNull();
      assertThat(storage.get(bytes("b")).valueBytes()).containsExactly(bytes("2"));
      assertThat(storage.get(bytes("c"))).isNull();
      assertThat(storage.get(bytes("d"))).as("written, read again: unchanged").isNull();
      assertThat(storage.get(bytes("e"))).as("what was read is trusted").isNull();
    }
  }

  @Test
  void aWatchThatLostTrackMakesTheCleanupReadEachKeyAgain() {
    try (Storage storage = new Storage(dir, 1 << 20)) {
      List<byte[]> keys = List.of(bytes("a"), bytes("b"), bytes("c"));
      List<Record> read =
          List.of(
              Record.value(1, bytes("1")),
              Record.value(1, bytes("1")),
              Record.value(1, bytes("1")));
      storage.putAllIfNewer(keys, read);
      try (WriteWatch since = storage.watchWrites(150)) {
        storage.putIfNewer(bytes("x"), Record.value(2, bytes("2")));
        assertThat(since.lost()).isFalse();
        storage.putIfNewer(bytes("b"), Record.value(2, bytes("2"))); // past the limit
        assertThat(since.lost()).isTrue();
        assertThat(since.maybeWritten(bytes("a"))).isTrue();
        assertThat(storage.removeIfUnchanged(keys, read, since))
            .as("b is read again: it changed")
            .isEqualTo(2);
      }
      assertThat(storage.get(bytes("b")).valueBytes()).containsExactly(bytes("2"));
      assertThat(storage.get(bytes("a"))).isNull();
    }
  }

  @Test
  void hintsAndFactsLiveApartFromTheData() {
    try (Storage storage = new Storage(dir, 1 << 20)) {
      storage.putHints(List.of(bytes("h1"), bytes("h2")), List.of(bytes("a"), bytes("b")));
      storage.putMeta(bytes("fact"), bytes("42"));
      assertThat(storage.get(bytes("h1"))).isNull();
      try (RangeCursor cursor = storage.range(bytes("\u0001"), null)) {
        assertThat(cursor.next(10, 1 << 20)).isEmpty();
      }
      try (RangeCursor hints = storage.hints(bytes("h"))) {
        assertThat(hints.next(10, 1 << 20)).hasSize(2);
      }
      storage.deleteHints(List.of(bytes("h1")));
      try (RangeCursor hints = storage.hints(bytes("h"))) {
        assertThat(hints.next(10, 1 << 20))
            .extracting(e -> new String(e.key()))
            .containsExactly("h2");
      }
    }
    try (Storage reopened = new Storage(dir, 1 << 20)) {
      assertThat(reopened.getMeta(bytes("fact"))).isEqualTo(bytes("42"));
    }
  }

  @Test
  void anOlderWriteIsKeptOutAfterAReopenWithOrWithoutThePersistedBound() {
    try (Storage storage = new Storage(dir, 1 << 20)) {
      storage.putIfNewer(bytes("k"), Record.value(1L << 40, bytes("new")));
    }
    try (Storage storage = new Storage(dir, 1 << 20)) {
      assertThat(storage.putIfNewer(bytes("k"), Record.value(5, bytes("old")))).isFalse();
      storage.deleteMeta(Storage.STORED_BOUND); // as a store written before the bound existed
    }
    try (Storage storage = new Storage(dir, 1 << 20)) { // the bound comes from a scan
      assertThat(storage.putIfNewer(bytes("k"), Record.value(5, bytes("old")))).isFalse();
      assertThat(storage.putIfNewer(bytes("k"), Record.value((1L << 40) - 1, bytes("x"))))
          .isFalse();
      assertThat(storage.putIfNewer(bytes("k"), Record.value((1L << 40) + 1, bytes("y")))).isTrue();
      assertThat(storage.get(bytes("k")).valueBytes()).containsExactly(bytes("y"));
    }
  }
}
