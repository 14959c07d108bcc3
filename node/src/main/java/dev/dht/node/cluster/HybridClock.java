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
 */
public final class HybridClock {
  static final int NODE_BITS = 8;
  static final int COUNTER_BITS = 12;
  private static final int LOGICAL_SHIFT = COUNTER_BITS;

  private final LongSupplier wallMillis;
  private final long nodeId;

  /** The last issued or observed timestamp without its node bits: millis << 12 | counter. */
  private final AtomicLong last = new AtomicLong();

  public HybridClock(LongSupplier wallMillis, int nodeId) {
    this.wallMillis = wallMillis;
    this.nodeId = nodeId & ((1 << NODE_BITS) - 1);
  }

  public static HybridClock system(String selfIdentity) {
    return new HybridClock(System::currentTimeMillis, selfIdentity.hashCode());
  }

  /** A timestamp greater than every one this clock issued or observed before. */
  public long next() {
    long physical = wallMillis.getAsLong() << LOGICAL_SHIFT;
    long logical = last.updateAndGet(previous -> Math.max(physical, previous + 1));
    return logical << NODE_BITS | nodeId;
  }

  /** Moves the clock past a timestamp seen from another node, so causality is kept. */
  public void observe(long timestamp) {
    long logical = timestamp >>> NODE_BITS;
    last.accumulateAndGet(logical, Math::max);
  }

  public static long millisOf(long timestamp) {
    return timestamp >>> (NODE_BITS + COUNTER_BITS);
  }
}
