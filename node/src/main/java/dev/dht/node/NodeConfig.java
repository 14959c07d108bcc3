package dev.dht.node;

import java.nio.file.Path;
import java.util.List;

/** Everything a node needs to start, resolved from flags, environment and files. */
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
    Repair repair) {
  /** Anti-entropy repair and tombstone purging. */
  public record Repair(long intervalMs, long bytesPerSecond, long tombstoneGraceMs) {}

  /** Hinted handoff: how long and how much is kept, how fast it is replayed. */
  public record Hints(long windowMs, long maxBytes, long replayBytesPerSecond) {}
}
