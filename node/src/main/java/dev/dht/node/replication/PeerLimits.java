package dev.dht.node.replication;

/**
 * What one event loop may have queued or in flight to one peer ({@code maxOps}, {@code maxBytes} of
 * keys and records), and the largest record a peer may answer with.
 */
public record PeerLimits(int maxOps, long maxBytes, int maxRecordBytes) {
  /** The node-wide per-peer bounds shared out among {@code eventLoops} loops. */
  public static PeerLimits perLoop(int maxOps, long maxBytes, int maxRecordBytes, int eventLoops) {
    return new PeerLimits(
        Math.max(1, maxOps / eventLoops),
        Math.max(maxRecordBytes, maxBytes / eventLoops),
        maxRecordBytes);
  }
}
