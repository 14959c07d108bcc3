package dev.dht.node.backup;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The SHA-256 of a checkpoint's files, which names them in the store: an SST file never changes, so
 * its digest is computed once per file (name, size and modification time) and kept while the file
 * is in the checkpoints.
 */
final class FileDigests {
  private record Identity(String name, long size, long modifiedMillis) {}

  private final Map<Identity, String> known = new ConcurrentHashMap<>();

  /** The hex SHA-256 of {@code file}. */
  String of(Path file) throws IOException {
    Identity id = identity(file);
    String digest = known.get(id);
    if (digest == null) {
      digest = sha256(file);
      if (file.getFileName().toString().endsWith(".sst")) {
        known.put(id, digest); // other files (MANIFEST, OPTIONS, CURRENT) may be rewritten
      }
    }
    return digest;
  }

  /** Forgets the files that are not among {@code current} (compacted away). */
  void keepOnly(Set<Path> current) throws IOException {
    Set<Identity> ids = ConcurrentHashMap.newKeySet();
    for (Path file : current) {
      ids.add(identity(file));
    }
    known.keySet().retainAll(ids);
  }

  private static Identity identity(Path file) throws IOException {
    return new Identity(
        file.getFileName().toString(),
        Files.size(file),
        Files.getLastModifiedTime(file).toMillis());
  }

  static String sha256(Path file) throws IOException {
    MessageDigest sha = sha256();
    byte[] buffer = new byte[64 << 10];
    try (InputStream in = Files.newInputStream(file)) {
      for (int n; (n = in.read(buffer)) > 0; ) {
        sha.update(buffer, 0, n);
      }
    }
    return HexFormat.of().formatHex(sha.digest());
  }

  static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
