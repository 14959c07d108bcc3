package dev.dht.node.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dht.node.storage.RangeCursor;
import dev.dht.node.storage.Record;
import dev.dht.node.storage.Storage;
import dev.dht.node.storage.StorageException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A range read that hits a corrupt block fails: the storage cursor throws, and over HTTP the
 * chunked stream breaks off without its last chunk, so a client never takes a truncated range for a
 * complete one.
 */
class CorruptRangeTest {
  private static final int KEYS = 20_000;

  @TempDir Path dir;

  @Test
  void aCorruptBlockFailsTheRangeInsteadOfEndingItEarly() throws Exception {
    writeKeysToSstFiles();
    corruptTheMiddleOfTheLargestSstFile();

    try (Storage storage = new Storage(dir, 1 << 20)) {
      try (RangeCursor cursor = storage.range(new byte[] {'k'}, null)) {
        assertThatThrownBy(
                () -> {
                  while (!cursor.next(256, 1 << 20).isEmpty()) {
                    // read on until the corrupt block
                  }
                })
            .isInstanceOf(StorageException.class);
      }
    }

    int port = Ports.free();
    try (LocalCluster node = LocalCluster.onDataDir(dir, port)) {
      int[] chunks = {0};
      assertThatThrownBy(() -> RawHttp.stream(port, "/v0/entities?start=k", (b, n) -> chunks[0]++))
          .as("a broken stream, not a clean 200")
          .isInstanceOfAny(java.io.UncheckedIOException.class, IllegalStateException.class);
      assertThat(chunks[0]).isLessThan(KEYS);
    }
  }

  private void writeKeysToSstFiles() {
    Random random = new Random(42);
    try (Storage storage = new Storage(dir, 1 << 20)) {
      for (int batch = 0; batch < KEYS / 1000; batch++) {
        List<byte[]> keys = new ArrayList<>();
        List<Record> records = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
          byte[] value = new byte[200];
          random.nextBytes(value); // incompressible: the keys fill several data blocks
          keys.add(String.format("k%06d", batch * 1000 + i).getBytes(StandardCharsets.UTF_8));
          records.add(Record.value(1, value));
        }
        storage.putAllIfNewer(keys, records);
      }
    }
    // reopening replays the write-ahead log into a table file
    new Storage(dir, 1 << 20).close();
  }

  private void corruptTheMiddleOfTheLargestSstFile() throws Exception {
    Path sst;
    try (Stream<Path> files = Files.list(dir)) {
      sst =
          files
              .filter(f -> f.toString().endsWith(".sst"))
              .max(Comparator.comparingLong(f -> f.toFile().length()))
              .orElseThrow(() -> new IllegalStateException("no table file in " + dir));
    }
    try (RandomAccessFile file = new RandomAccessFile(sst.toFile(), "rw")) {
      byte[] garbage = new byte[8192];
      Arrays.fill(garbage, (byte) 0xAB);
      file.seek(file.length() / 3);
      file.write(garbage);
    }
  }
}
