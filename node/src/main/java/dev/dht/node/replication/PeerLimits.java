package dev.dht.node.replication;

import dev.dht.node.storage.Record;

/**
 * What one event loop may have queued or in flight to one peer ({@code maxOps}, {@code maxBytes} of
 * keys and records), the largest record a peer may answer with, and the largest batch to send (at
 * most 4 MiB, and never more than a replica reads).
 */
public record PeerLimits(int maxOps, long maxBytes, int maxRecordBytes, int maxBatchBytes) {
  /** The node-wide per-peer bounds shared out among {@code eventLoops} loops. */
  public static PeerLimits perLoop(
      int maxOps, long maxBytes, int maxKeyBytes, int maxValueBytes, int eventLoops) {
    int maxRecordBytes = maxValueBytes + Record.HEADER_BYTES;
    return new PeerLimits(
        Math.max(1, maxOps / eventLoops),
        Math.max(maxRecordBytes, maxBytes / eventLoops),
        maxRecordBytes,
        Math.min(4 << 20, InternalApi.maxBatchBytes(maxKeyBytes, maxValueBytes)));
  }
}
