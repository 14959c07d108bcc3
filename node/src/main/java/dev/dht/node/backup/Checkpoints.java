package dev.dht.node.backup;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Scratch directories of backups and restores, deleted whole. */
final class Checkpoints {
  private Checkpoints() {}

  /** Deletes {@code dir} and everything in it; nothing if it does not exist. */
  static void delete(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
