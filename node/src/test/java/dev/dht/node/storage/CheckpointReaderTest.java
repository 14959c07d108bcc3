package dev.dht.node.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CheckpointReaderTest {
  @TempDir Path dir;

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void aCheckpointsDigestDependsOnItsRecordsOnlyAndItsReaderSeesThemAll() {
    try (Storage storage = new Storage(dir.resolve("db"), 1 << 20)) {
      for (int i = 0; i < 2500; i++) {
        storage.putIfNewer(bytes("k" + i), Record.value(100 + i, bytes("v" + i)));
      }
      storage.putIfNewer(bytes("gone"), Record.tombstone(5000));
      storage.putMeta(bytes("fact"), bytes("not data"));
      storage.checkpoint(dir.resolve("a"));
      storage.checkpoint(dir.resolve("b"));
      storage.putIfNewer(bytes("k7"), Record.value(9000, bytes("changed")));
      storage.checkpoint(dir.resolve("c"));
    }
    CheckpointReader.Digest a = CheckpointReader.digest(dir.resolve("a"));
    assertThat(a.records()).isEqualTo(2501);
    assertThat(a.sha256()).matches("[0-9a-f]{64}");
    assertThat(CheckpointReader.digest(dir.resolve("b"))).isEqualTo(a);
    assertThat(CheckpointReader.digest(dir.resolve("c")).records()).isEqualTo(2501);
    assertThat(CheckpointReader.digest(dir.resolve("c")).sha256()).isNotEqualTo(a.sha256());

    List<Record> read = new ArrayList<>();
    long count = CheckpointReader.readData(dir.resolve("a"), 1000, (k, r) -> read.addAll(r));
    assertThat(count).isEqualTo(2501);
    assertThat(read).hasSize(2501).filteredOn(Record::tombstone).hasSize(1);
  }

  @Test
  void aCheckpointMissingAFileCannotBeRead() throws IOException {
    try (Storage storage = new Storage(dir.resolve("db"), 1 << 20)) {
      storage.putIfNewer(bytes("k"), Record.value(1, bytes("v")));
      storage.checkpoint(dir.resolve("a"));
    }
    try (Stream<Path> files = Files.list(dir.resolve("a"))) {
      for (Path file : files.filter(f -> f.getFileName().toString().endsWith(".sst")).toList()) {
        Files.delete(file);
      }
    }
    assertThatThrownBy(() -> CheckpointReader.digest(dir.resolve("a")))
        .isInstanceOf(StorageException.class)
        .hasMessageContaining("cannot read the checkpoint");
  }
}
