package dev.dht.operator.backup;

import java.time.Instant;

/**
 * The wall-clock time of a node's hybrid-clock timestamp, such as a backup's cut: a timestamp is 43
 * bits of milliseconds since the epoch, then 12 bits of logical counter and 8 bits of node id (the
 * node's {@code HybridClock}; the operator reads the number, not the node's classes).
 */
public final class HlcTime {
  /** The bits below the milliseconds: the logical counter and the node id. */
  static final int LOW_BITS = 12 + 8;

  private HlcTime() {}

  /** The millisecond {@code timestamp} was issued in. */
  public static Instant of(long timestamp) {
    if (timestamp < 0) {
      throw new IllegalArgumentException("a hybrid-clock timestamp is positive: " + timestamp);
    }
    return Instant.ofEpochMilli(timestamp >>> LOW_BITS);
  }
}
