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
 * <p>A clock survives restarts through its {@link Reservation}: it never issues a timestamp past
 * the reserved (persisted) millisecond, and starts above the one reserved before, so a restarted
 * node never issues a timestamp lower than one it issued before, even if its wall clock went back.
 *
 * <p>Timestamps from other nodes are observed only if they are at most the maximum clock offset
 * ahead of this node's wall clock: one node with a clock far ahead (or a forged timestamp) cannot
 * drag every clock it talks to into the future, and the clock can never be pushed to overflow.
 *
 * <p>The clock issues no timestamp while its {@link Fence} says its wall clock is out (measured
 * against the peers'), nor one more than the maximum clock offset ahead of its own wall clock (a
 * mark carried over a restart from a clock that ran ahead, or a version to order a write after): a
 * write fails rather than carry a timestamp that every replica would refuse, or that would shadow
 * the writes after it.
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

  /** The largest node id: ids are the low byte of every timestamp. */
  public static final int MAX_NODE_ID = (1 << NODE_BITS) - 1;

  /**
   * Where a clock keeps the millisecond up to which it may issue timestamps, so that it survives a
   * restart: {@link #floorMillis} is what was reserved before the start, {@link #reservedMillis}
   * what is reserved (durably) now, and {@link #extend} asks, without waiting, for a reservation
   * past a millisecond.
   */
  public interface Reservation {
    long floorMillis();

    long reservedMillis();

    void extend(long millis);

    /** No persistence: a clock that may issue any timestamp (tests, tools). */
    Reservation NONE =
        new Reservation() {
          @Override
          public long floorMillis() {
            return 0;
          }

          @Override
          public long reservedMillis() {
            return Long.MAX_VALUE;
          }

          @Override
          public void extend(long millis) {}
        };
  }

  /**
   * Says whether this node's wall clock can be trusted to stamp writes: null if it can, else why
   * not (see {@link ClockOffsets}).
   */
  public interface Fence {
    String fencedReason();

    /** No measurement: a clock that is always trusted (tests, tools). */
    Fence NONE = () -> null;
  }

  /**
   * The clock may not issue the timestamp asked for: it is fenced, or that would be too far ahead.
   */
  public static final class FencedException extends IllegalStateException {
    FencedException(String reason) {
      super(reason, null);
    }
  }

  /** A timestamp past the durable reservation was needed; the reservation is being extended. */
  public static final class NotReservedException extends IllegalStateException {
    NotReservedException(long millis, long reserved) {
      super(
          "the clock's high-water mark is being persisted (needed "
              + millis
              + ", reserved "
              + reserved
              + "); retry");
    }
  }

  /**
   * A reservation is extended once a timestamp is issued within this many ms of its end, to twice
   * as far past that timestamp: a persisted write every so often, never one per timestamp. A write
   * that needs a timestamp past the reservation fails (503) until the extension is synced, so this
   * is also the longest fsync that costs no write: measured, with 250 ms, PUTs at 20k/s on a
   * saturated 2-core box got hundreds of 503s while RocksDB's flushes held the disk.
   */
  public static final long RESERVE_AHEAD_MS = 1000;

  private final LongSupplier wallMillis;
  private final long nodeId;
  private final long maxOffsetMs;
  private final Reservation reservation;
  private final Fence fence;

  /** The last issued or observed timestamp without its node bits: millis << 12 | counter. */
  private final AtomicLong last = new AtomicLong();

  public HybridClock(LongSupplier wallMillis, int nodeId, long maxOffsetMs) {
    this(wallMillis, nodeId, maxOffsetMs, Reservation.NONE);
  }

  public HybridClock(
      LongSupplier wallMillis, int nodeId, long maxOffsetMs, Reservation reservation) {
    this(wallMillis, nodeId, maxOffsetMs, reservation, Fence.NONE);
  }

  public HybridClock(
      LongSupplier wallMillis, int nodeId, long maxOffsetMs, Reservation reservation, Fence fence) {
    if (nodeId < 0 || nodeId > MAX_NODE_ID) {
      throw new IllegalArgumentException(
          "a node id must be in 0.." + MAX_NODE_ID + ", got " + nodeId);
    }
    this.wallMillis = wallMillis;
    this.nodeId = nodeId;
    this.maxOffsetMs = maxOffsetMs;
    this.reservation = reservation;
    this.fence = fence;
    last.set(Math.min(reservation.floorMillis(), MAX_LOGICAL >>> COUNTER_BITS) << COUNTER_BITS);
  }

  /** A timestamp greater than every one this clock issued or observed before. */
  public long next() {
    return nextAfter(0);
  }

  /**
   * A timestamp greater than {@code timestamp} and than every one this clock issued or observed
   * before: orders a write after a version that a replica reported holding. Fails with {@link
   * FencedException}, issuing nothing, while the clock is fenced, or if that timestamp would be
   * more than the maximum clock offset ahead of the wall clock (no replica would accept it).
   */
  public long nextAfter(long timestamp) {
    String fenced = fence.fencedReason();
    if (fenced != null) {
      throw new FencedException(fenced);
    }
    long floor = timestamp >>> NODE_BITS;
    long wall = wallMillis.getAsLong();
    long physical = wall << LOGICAL_SHIFT;
    long logical =
        last.updateAndGet(previous -> {
          long base = Math.max(previous, floor);
          if (base >= MAX_LOGICAL) {
            throw new ExhaustedException();
          }
          long next = Math.max(physical, base + 1);
          if ((next >>> COUNTER_BITS) - wall > maxOffsetMs) {
            throw new FencedException(
                "this write would be stamped "
                    + ((next >>> COUNTER_BITS) - wall)
                    + " ms ahead of this node's clock, more than the maximum clock offset of "
                    + maxOffsetMs
                    + " ms (a clock that ran ahead, or a newer version from one): not stamped");
          }
          return next;
        });
    long millis = logical >>> COUNTER_BITS;
    long reserved = reservation.reservedMillis();
    if (millis > reserved - RESERVE_AHEAD_MS) {
      reservation.extend(millis + 2 * RESERVE_AHEAD_MS);
      if (millis > reserved) {
        throw new NotReservedException(millis, reserved);
      }
    }
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

  /** Why this clock may not stamp writes now (see {@link Fence}); null when it may. */
  public String fencedReason() {
    return fence.fencedReason();
  }

  /**
   * Whether a version from elsewhere may be stored here: the clock is not fenced, and the version
   * is {@link #plausible} (a record stamped by a clock far ahead would shadow every later write).
   */
  public boolean admits(long timestamp) {
    return plausible(timestamp) && fence.fencedReason() == null;
  }

  /** This node's wall clock, in ms. */
  public long wallMillis() {
    return wallMillis.getAsLong();
  }

  /** The smallest timestamp of millisecond {@code millis}: every later one is larger. */
  public static long firstOf(long millis) {
    return millis << (NODE_BITS + COUNTER_BITS);
  }

  public static long millisOf(long timestamp) {
    return timestamp >>> (NODE_BITS + COUNTER_BITS);
  }
}
