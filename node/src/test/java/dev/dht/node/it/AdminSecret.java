package dev.dht.node.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Supplier;

/**
 * The cluster secret a test client sends on admin requests: the contents of the node's {@code
 * --cluster-secret-file} at the time of the request (tests rotate it), or none.
 */
final class AdminSecret {
  private static final String FLAG = "--cluster-secret-file";

  private AdminSecret() {}

  /** The secret file among a node's flags (the last one given), read at each call. */
  static Supplier<String> fromFlags(String... flags) {
    Path file = null;
    for (int i = 0; i < flags.length; i++) {
      if (flags[i].equals(FLAG) && i + 1 < flags.length) {
        file = Path.of(flags[i + 1]);
      } else if (flags[i].startsWith(FLAG + "=")) {
        file = Path.of(flags[i].substring(FLAG.length() + 1));
      }
    }
    return of(file);
  }

  /** The contents of {@code file}; the last ones read while it is missing, as the node keeps. */
  static Supplier<String> of(Path file) {
    String[] last = {null};
    return () -> {
      if (file == null) {
        return null;
      }
      try {
        String read = Files.readString(file).strip();
        last[0] = read.isEmpty() ? last[0] : read;
      } catch (IOException e) {
        // a deleted secret file keeps the secret in force
      }
      return last[0];
    };
  }
}
