package dev.dht.node.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.EnvOptions;
import org.rocksdb.Options;
import org.rocksdb.SstFileWriter;

/** {@link Storage#ingestIfNewer}: newest wins, whatever was there and whatever lands meanwhile. */
class IngestTest {
  @TempDir Path dir;

  private static final Storage.Admission ALL = (key, record) -> true;

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private Path file(Storage storage, String name, Object... keysAndRecords) {
    Path file = storage.transferDir().resolve(name);
    try (SstWriter writer = storage.sstWriter(file)) {
      for (int i = 0; i < keysAndRecords.length; i += 2) {
        writer.put(bytes((String) keysAndRecords[i]), ((Record) keysAndRecords[i + 1]).encoded());
      }
      writer.finish();
    }
    return file;
  }

  @Test
  void keepsWhatIsNewerThanThisNodesVersions() {
    try (Storage storage = new Storage(dir.resolve("db"), 1 << 20)) {
      storage.putIfNewer(bytes("b"), Record.value(30, bytes("mine, newer")));
      storage.putIfNewer(bytes("c"), Record.value(10, bytes("mine, older")));
      storage.putIfNewer(bytes("d"), Record.value(20, bytes("same")));
      Path file =
          file(
              storage,
              "f.sst",
              "a",
              Record.value(20, bytes("theirs")),
              "b",
              Record.value(20, bytes("theirs, older")),
              "c",
              Record.tombstone(20),
              "d",
              Record.value(20, bytes("same")),
              "e",
              Record.value(20, bytes("theirs")));

      Storage.Ingested ingested = storage.ingestIfNewer(file, ALL);

      assertThat(ingested.entries()).isEqualTo(5);
      assertThat(ingested.kept()).isEqualTo(3);
      assertThat(ingested.lastKey()).isEqualTo(bytes("e"));
      assertThat(storage.get(bytes("a")).valueBytes()).isEqualTo(bytes("theirs"));
      assertThat(storage.get(bytes("b")).valueBytes()).isEqualTo(bytes("mine, newer"));
      assertThat(storage.get(bytes("c")).tombstone()).isTrue();
      assertThat(storage.get(bytes("d")).valueBytes()).isEqualTo(bytes("same"));
      assertThat(storage.get(bytes("e")).valueBytes()).isEqualTo(bytes("theirs"));
    }
  }

  @Test
  void aWriteDuringTheIngestStaysIfNewer() {
    try (Storage storage = new Storage(dir.resolve("db"), 1 << 20)) {
      Path file =
          file(
              storage,
              "f.sst",
              "a",
              Record.value(20, bytes("theirs")),
              "b",
              Record.value(20, bytes("theirs")),
              "c",
              Record.value(20, bytes("theirs")));
      boolean[] once = {true};
      Storage.Admission writesMeanwhile =
          (key, record) -> {
            if (once[0]) { // as a client's write would, while the file is being read
              once[0] = false;
              storage.putIfNewer(bytes("b"), Record.value(30, bytes("newer, meanwhile")));
              storage.putIfNewer(bytes("c"), Record.value(10, bytes("older, meanwhile")));
              storage.putIfNewer(bytes("z"), Record.value(10, bytes("another key")));
            }
            return true;
          };

      storage.ingestIfNewer(file, writesMeanwhile);

      assertThat(storage.get(bytes("a")).valueBytes()).isEqualTo(bytes("theirs"));
      assertThat(storage.get(bytes("b")).valueBytes()).isEqualTo(bytes("newer, meanwhile"));
      assertThat(storage.get(bytes("c")).valueBytes()).isEqualTo(bytes("theirs"));
      assertThat(storage.get(bytes("z")).valueBytes()).isEqualTo(bytes("another key"));
    }
  }

  @Test
  void whatReadsAskThisNodeForIsWrittenAsAWriteIsAndNewestStillWins() {
    try (Storage storage = new Storage(dir.resolve("db"), 1 << 20)) {
      storage.putIfNewer(bytes("r2"), Record.value(30, bytes("mine, newer")));
      Path file =
          file(
              storage,
              "f.sst",
              "i1",
              Record.value(20, bytes("ingested")),
              "r1",
              Record.value(20, bytes("written")),
              "r2",
              Record.value(20, bytes("theirs, older")),
              "r3",
              Record.tombstone(20));
      Storage.Admission readHere =
          new Storage.Admission() {
            @Override
            public boolean admits(byte[] key, Record record) {
              return true;
            }

            @Override
            public boolean readHere(byte[] key) {
              return key[0] == 'r';
            }
          };

      Storage.Ingested ingested = storage.ingestIfNewer(file, readHere);

      assertThat(ingested.kept()).isEqualTo(3);
      assertThat(storage.get(bytes("i1")).valueBytes()).isEqualTo(bytes("ingested"));
      assertThat(storage.get(bytes("r1")).valueBytes()).isEqualTo(bytes("written"));
      assertThat(storage.get(bytes("r2")).valueBytes()).isEqualTo(bytes("mine, newer"));
      assertThat(storage.get(bytes("r3")).tombstone()).isTrue();
    }
  }

  @Test
  void anIngestedVersionIsNotOverwrittenByAnOlderWriteAfterIt() {
    try (Storage storage = new Storage(dir.resolve("db"), 1 << 20)) {
      Path file = file(storage, "f.sst", "k", Record.value(1L << 40, bytes("ingested")));
      storage.ingestIfNewer(file, ALL);

      assertThat(storage.putIfNewer(bytes("k"), Record.value(1L << 30, bytes("older")))).isFalse();
      assertThat(storage.get(bytes("k")).valueBytes()).isEqualTo(bytes("ingested"));
    }
    try (Storage reopened = new Storage(dir.resolve("db"), 1 << 20)) { // its bound was persisted
      assertThat(reopened.putIfNewer(bytes("k"), Record.value(1L << 30, bytes("older")))).isFalse();
    }
  }

  @Test
  void anIngestMakesAWatchOfWritesLoseTrack() {
    try (Storage storage = new Storage(dir.resolve("db"), 1 << 20);
        WriteWatch since = storage.watchWrites(1 << 20)) {
      storage.ingestIfNewer(file(storage, "f.sst", "k", Record.value(5, bytes("ingested"))), ALL);

      assertThat(since.maybeWritten(bytes("k"))).as("it cannot name the file's keys").isTrue();
    }
  }

  @Test
  void leavesOutWhatTheAdmissionRefusesAndOldTombstonesOfAbsentKeys() {
    try (Storage storage = new Storage(dir.resolve("db"), 1 << 20, () -> 100)) {
      storage.putIfNewer(bytes("v"), Record.value(150, bytes("purged soon")));
      Path file =
          file(
              storage,
              "f.sst",
              "absent",
              Record.tombstone(50),
              "ahead",
              Record.value(1000, bytes("too far ahead")),
              "fine",
              Record.value(120, bytes("kept")),
              "v",
              Record.tombstone(160));

      Storage.Ingested ingested =
          storage.ingestIfNewer(file, (key, record) -> record.timestamp() < 500);

      assertThat(ingested.kept()).isEqualTo(2);
      assertThat(storage.get(bytes("absent"))).isNull();
      assertThat(storage.get(bytes("ahead"))).isNull();
      assertThat(storage.get(bytes("fine")).valueBytes()).isEqualTo(bytes("kept"));
      assertThat(storage.get(bytes("v")).tombstone()).isTrue();
    }
  }

  @Test
  void refusesAFileThatIsNotOnlyRecordsAndKeepsNothingOfIt() throws Exception {
    try (Storage storage = new Storage(dir.resolve("db"), 1 << 20);
        Options options = new Options();
        EnvOptions env = new EnvOptions()) {
      storage.putIfNewer(bytes("b"), Record.value(10, bytes("mine")));
      Path withDelete = storage.transferDir().resolve("delete.sst");
      try (SstFileWriter writer = new SstFileWriter(env, options)) {
        writer.open(withDelete.toString());
        writer.put(bytes("a"), Record.value(20, bytes("x")).encoded());
        writer.delete(bytes("b"));
        writer.finish();
      }
      Path shortRecord = storage.transferDir().resolve("short.sst");
      try (SstFileWriter writer = new SstFileWriter(env, options)) {
        writer.open(shortRecord.toString());
        writer.put(bytes("a"), Record.value(20, bytes("x")).encoded());
        writer.put(bytes("c"), new byte[] {1, 2});
        writer.finish();
      }
      Path notAnSst = storage.transferDir().resolve("garbage.sst");
      Files.write(notAnSst, new byte[4096]);

      assertThatThrownBy(() -> storage.ingestIfNewer(withDelete, ALL))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("deletions");
      assertThatThrownBy(() -> storage.ingestIfNewer(shortRecord, ALL))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("shorter than its header");
      assertThatThrownBy(() -> storage.ingestIfNewer(notAnSst, ALL))
          .isInstanceOf(StorageException.class);
      assertThat(storage.get(bytes("a"))).isNull();
      assertThat(storage.get(bytes("b")).valueBytes()).isEqualTo(bytes("mine"));
    }
  }

  @Test
  void writesLeftPendingByAnInterruptedIngestAreStoredAgainAtOpen() {
    try (Storage storage = new Storage(dir.resolve("db"), 1 << 20)) {
      storage.putIfNewer(bytes("k"), Record.value(20, bytes("the ingest's, older")));
      storage.putIfNewer(bytes("j"), Record.value(40, bytes("newer than the pending one")));
      var pending = new java.util.LinkedHashMap<java.nio.ByteBuffer, Record>();
      pending.put(java.nio.ByteBuffer.wrap(bytes("k")), Record.value(30, bytes("a write")));
      pending.put(java.nio.ByteBuffer.wrap(bytes("j")), Record.value(35, bytes("older")));
      storage.putMeta(Storage.PENDING_WRITES, PendingWrites.encode(pending));
    }
    try (Storage reopened = new Storage(dir.resolve("db"), 1 << 20)) {
      assertThat(reopened.get(bytes("k")).valueBytes()).isEqualTo(bytes("a write"));
      assertThat(reopened.get(bytes("j")).valueBytes())
          .isEqualTo(bytes("newer than the pending one"));
      assertThat(reopened.getMeta(Storage.PENDING_WRITES)).isNull();
    }
  }

  @Test
  void emptiesTheTransferDirectoryAtOpen() throws Exception {
    Path leftover;
    try (Storage storage = new Storage(dir.resolve("db"), 1 << 20)) {
      leftover = Files.writeString(storage.transferDir().resolve("in-1.sst"), "half a file");
    }
    try (Storage storage = new Storage(dir.resolve("db"), 1 << 20)) {
      assertThat(leftover).doesNotExist();
      assertThat(storage.transferDir()).isDirectory();
    }
  }
}
