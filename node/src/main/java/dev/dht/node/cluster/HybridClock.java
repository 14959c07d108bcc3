package dev.dht.node.cluster;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * A hybrid logical clock: the physical part is wall-clock milliseconds, the logical counter keeps
 * timestamps strictly increasing when the wall clock stalls or steps back, and the low byte is a
 * node tiebreak so two coordinators never issue the same timestamp.
 *
 * <p>Layout of a timestamp (63 bits, always positive): 43 bits of milliseconds (good until the year
 * 2248), 12 bits of logical counter, 8 bits of node id. A counter overflow simply carries into the
 * millisecond part, which keeps the order.
 *
 * <p>Timestamps from other nodes are observed only if they are at most the maximum clock offset
 * ahead of this node's wall clock: one node with a clock far ahead (or a forged timestamp) cannot
 * drag every clock it talks to into the future, and the clock can never be pushed to overflow.
 */
public final class HybridClock {
  static final int NODE_BITS = 8;
  static final int COUNTER_BITS = 12;
  private static final int LOGICAL_SHIFT = COUNTER_BITS;

  /** The largest logical value (millis and counter) that still makes a positive timestamp. */
  static final long MAX_LOGICAL = Long.MAX_VALUE >>> NODE_BITS;

  /** This clock has issued its last possible timestamp (it cannot happen before the year 2248). */
  public static final class ExhaustedException extends IllegalStateException {
    ExhaustedException() {
      super("the hybrid clock reached its largest timestamp");
    }
  }

  private final LongSupplier wallMillis;
  private final long nodeId;
  private final long maxOffsetMs;

  /** The last issued or observed timestamp without its node bits: millis << 12 | counter. */
  private final AtomicLong last = new AtomicLong();

  public HybridClock(LongSupplier wallMillis, int nodeId, long maxOffsetMs) {
    this.wallMillis = wallMillis;
    this.nodeId = nodeId & ((1 << NODE_BITS) - 1);
    this.maxOffsetMs = maxOffsetMs;
  }

  public static HybridClock system(String selfIdentity, long maxOffsetMs) {
    return new HybridClock(System::currentTimeMillis, selfIdentity.hashCode(), maxOffsetMs);
  }

  /** A timestamp greater than every one this clock issued or observed before. */
  public long next() {
    return nextAfter(0);
  }

  /**
   * A timestamp greater than {@code timestamp} and than every one this clock issued or observed
   * before: orders a write after a version that a replica reported holding, however far ahead of
   * this node's wall clock that version was stamped (it passed that replica's offset check).
   */
  public long nextAfter(long timestamp) {
    long floor = timestamp >>> NODE_BITS;
    long physical = wallMillis.getAsLong() << LOGICAL_SHIFT;
    long logical =
        last.updateAndGet(previous -> {
          long base = Math.max(previous, floor);
          if (base >= MAX_LOGICAL) {
            throw new ExhaustedException();
          }
          return Math.max(physical, base + 1);
        });
    return logical << NODE_BITS | nodeId;
  }

  /** How far {@code timestamp} is ahead of this node's wall clock, in ms (negative: behind). */
  public long aheadOfWallMs(long timestamp) {
    return millisOf(timestamp) - wallMillis.getAsLong();
  }

  /** Whether a timestamp from another node is within the maximum clock offset of this clock. */
  public boolean plausible(long timestamp) {
    return timestamp >= 0 && aheadOfWallMs(timestamp) <= maxOffsetMs;
  }

  /**
   * Moves the clock past a timestamp seen from another node, so causality is kept; returns false
   * and changes nothing if the timestamp is not {@link #plausible}.
   */
  public boolean observe(long timestamp) {
    if (!plausible(timestamp)) {
      return false;
    }
    long logical = timestamp >>> NODE_BITS;
    last.accumulateAndGet(logical, Math::max);
    return true;
  }

  public long maxOffsetMs() {
    return maxOffsetMs;
  }

  public static long millisOf(long timestamp) {
    return timestamp >>> (NODE_BITS + COUNTER_BITS);
  }
}
