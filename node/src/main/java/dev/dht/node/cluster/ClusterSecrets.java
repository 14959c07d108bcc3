package dev.dht.node.cluster;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cluster secret this node sends on internal requests, and the secrets it accepts: the same
 * one, plus, during a rotation, one more ("also accepted"). Both are re-read from their files while
 * the node runs ({@link #watch}), so a rotation needs no restart:
 *
 * <ol>
 *   <li>every node also accepts the new secret (the also-accepted file);
 *   <li>every node sends the new one and also accepts the old one (the files swapped);
 *   <li>the old one is dropped (the also-accepted file removed).
 * </ol>
 *
 * <p>A secret file that disappears or is emptied keeps the secret in force (a deleted Kubernetes
 * Secret must not lock a running node out of its peers); a removed also-accepted file ends the
 * rotation. No secret at all (a single node, or {@code --insecure}): every request is admitted.
 */
public final class ClusterSecrets {
  private static final Logger log = LoggerFactory.getLogger(ClusterSecrets.class);

  private record Keys(String current, byte[] currentBytes, byte[] alsoAccepted) {}

  private volatile Keys keys;

  public ClusterSecrets(String current, String alsoAccepted) {
    this.keys = keys(blankToNull(current), blankToNull(alsoAccepted));
  }

  /** The secret to send; null when the cluster runs without one. */
  public String current() {
    return keys.current();
  }

  /** Whether a request presenting {@code presented} (null: none) gets in (constant time). */
  public boolean admits(String presented) {
    Keys k = keys;
    if (k.current() == null) {
      return true;
    }
    if (presented == null) {
      return false;
    }
    byte[] given = presented.getBytes(StandardCharsets.UTF_8);
    boolean current = MessageDigest.isEqual(k.currentBytes(), given);
    boolean also = k.alsoAccepted() != null && MessageDigest.isEqual(k.alsoAccepted(), given);
    return current | also;
  }

  /**
   * Takes new file contents: a blank or missing {@code current} keeps the secret in force (and a
   * node without one stays without); a blank or missing {@code alsoAccepted} accepts no other.
   */
  public void update(String current, String alsoAccepted) {
    Keys before = keys;
    String next = blankToNull(current);
    if (before.current() == null || next == null) {
      next = before.current();
    }
    Keys after = keys(next, blankToNull(alsoAccepted));
    if (!fingerprints(after).equals(fingerprints(before))) {
      log.info("cluster secrets now {} (was {})", fingerprints(after), fingerprints(before));
    }
    keys = after;
  }

  /** Short SHA-256 fingerprints of the secret sent and the one also accepted, for operators. */
  public List<String> fingerprints() {
    return fingerprints(keys);
  }

  /** Re-reads the two files every {@code periodMs} on {@code vertx}'s non-blocking file system. */
  public long watch(Vertx vertx, Path currentFile, Path alsoAcceptedFile, long periodMs) {
    return vertx.setPeriodic(
        periodMs,
        id ->
            read(vertx, currentFile)
                .onSuccess(current ->
                    read(vertx, alsoAcceptedFile).onSuccess(also -> update(current, also))));
  }

  private static io.vertx.core.Future<String> read(Vertx vertx, Path file) {
    if (file == null) {
      return io.vertx.core.Future.succeededFuture(null);
    }
    return vertx
        .fileSystem()
        .readFile(file.toString())
        .map(Buffer::toString)
        .otherwise((String) null);
  }

  private static Keys keys(String current, String alsoAccepted) {
    return new Keys(
        current,
        current == null ? null : current.getBytes(StandardCharsets.UTF_8),
        current == null || alsoAccepted == null
            ? null
            : alsoAccepted.getBytes(StandardCharsets.UTF_8));
  }

  private static List<String> fingerprints(Keys k) {
    var out = new ArrayList<String>();
    if (k.currentBytes() != null) {
      out.add(fingerprint(k.currentBytes()));
    }
    if (k.alsoAccepted() != null) {
      out.add(fingerprint(k.alsoAccepted()));
    }
    return List.copyOf(out);
  }

  private static String fingerprint(byte[] secret) {
    try {
      return HexFormat.of()
          .formatHex(MessageDigest.getInstance("SHA-256").digest(secret))
          .substring(0, 12);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is a mandatory JDK algorithm", e);
    }
  }

  private static String blankToNull(String value) {
    return value == null || value.isBlank() ? null : value.strip();
  }
}
