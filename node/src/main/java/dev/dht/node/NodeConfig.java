package dev.dht.node;

import dev.dht.contract.UsersDocument;
import dev.dht.contract.backup.RestoreSource;
import dev.dht.node.tls.TlsFiles;
import java.nio.file.Path;
import java.util.List;

/**
 * Everything a node needs to start, resolved from flags, environment and files. {@code port} serves
 * clients; peers and admin requests have their own ports or share it; {@code tls} null: plain HTTP;
 * {@code users} the users document {@code usersFile} held at start (both null: clients are not
 * authenticated).
 */
public record NodeConfig(
    int port,
    String listenAddress,
    Path dataDir,
    String self,
    List<String> members,
    Path clusterFile,
    int eventLoops,
    int storageThreads,
    int maxInflight,
    long requestTimeoutMs,
    int defaultAck,
    int defaultFrom,
    int maxKeyBytes,
    int maxValueBytes,
    String clusterSecret,
    String alsoAcceptedSecret,
    Path clusterSecretFile,
    Path alsoAcceptedSecretFile,
    long blockCacheBytes,
    int idleTimeoutSeconds,
    long bodyTimeoutMs,
    long maxBodyBytesInflight,
    int maxInternalInflight,
    long maxInternalBodyBytesInflight,
    int peerMaxPendingOps,
    long peerMaxPendingBytes,
    long maxClockOffsetMs,
    long shutdownDelayMs,
    int nodeId,
    Hints hints,
    Repair repair,
    int peerPort,
    int adminPort,
    TlsFiles tls,
    Path usersFile,
    UsersDocument users,
    Backups backups,
    boolean peerFrames) {

  /** Whether peers talk to a port of their own (and, with TLS, prove who they are on it). */
  public boolean peerPortSeparate() {
    return peerPort != port;
  }

  /** Anti-entropy repair and tombstone purging. */
  /** {@code streamFiles}: streams move SST files (else digests and entries, as older nodes). */
  public record Repair(
      long intervalMs, long bytesPerSecond, long tombstoneGraceMs, boolean streamFiles) {}

  /**
   * Backups: where they go (a settings file re-read at each one; null: the node takes none), and
   * the backup a new node restores before it serves (null: none).
   */
  public record Backups(Path storeFile, RestoreSource restore) {
    public static final Backups NONE = new Backups(null, null);
  }

  /** Hinted handoff: how long and how much is kept, how fast it is replayed. */
  public record Hints(long windowMs, long maxBytes, long replayBytesPerSecond) {}
}
