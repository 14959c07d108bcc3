package dev.dht.node.repair;

import dev.dht.node.cluster.HybridClock;
import java.util.List;

/**
 * The timestamp before which this node purges tombstones (Scylla's {@code tombstone_gc: repair} is
 * the model). A tombstone may go only once every replica holds it: else a replica that missed the
 * delete keeps the old value, and repair brings it back. Every replica that completed a repair run
 * reaching every peer holds every tombstone its peers held when that run started. So a node moves
 * its horizon only at the end of such a run of its own, to the oldest start among its own run and
 * the last ones of all its peers (which they report), less a margin for writes stamped before and
 * stored after a run began (the clock offset and the request timeout); and never past the grace
 * period. With a peer away (partitioned, down, or gone for good), no run reaches every peer and
 * nothing is purged until it is back or removed. The horizon never moves back and never follows a
 * jump of the wall clock alone: a peer's last run bounds it.
 *
 * <p>The value is read by every write (a tombstone stamped before it deletes its key instead of
 * being kept) and set by the repairer's thread.
 */
public final class TombstoneHorizon {
  /** What a node reports as its last complete run when it has none (or is of an older version). */
  public static final long NEVER = 0;

  private volatile long timestamp;

  /** The horizon, as a hybrid-clock timestamp: tombstones stamped before it are purged. */
  public long timestamp() {
    return timestamp;
  }

  /** The horizon in wall-clock millis. */
  public long millis() {
    return HybridClock.millisOf(timestamp);
  }

  void set(long timestamp) {
    this.timestamp = Math.max(this.timestamp, timestamp);
  }

  /**
   * The horizon after a repair run reached every peer: {@code previous} (a timestamp) moved up to
   * the oldest of {@code repairedSinceMillis} (the start of this node's run and of each peer's last
   * complete run; {@link #NEVER} for a peer that has none) less {@code marginMs}, and to at most
   * {@code nowMillis - graceMs}.
   */
  static long next(
      long previous, long nowMillis, long graceMs, long marginMs, List<Long> repairedSinceMillis) {
    long oldest = repairedSinceMillis.stream().mapToLong(Long::longValue).min().orElse(NEVER);
    if (oldest == NEVER) {
      return previous;
    }
    long millis = Math.min(nowMillis - graceMs, oldest - marginMs);
    return millis <= 0 ? previous : Math.max(previous, HybridClock.firstOf(millis));
  }
}
