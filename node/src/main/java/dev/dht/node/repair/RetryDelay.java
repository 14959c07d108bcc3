package dev.dht.node.repair;

/**
 * How soon a repair that could not reach every peer is tried again: 5 s after the first failure,
 * doubling to at most 30 s (and never later than the interval). Peers that start together (a new
 * cluster, a rollout) come up within seconds of each other, so the first run after a start
 * completes then, before clients' load, instead of half a minute later in the middle of it.
 */
record RetryDelay(long firstMs, long maxMs) {
  static final RetryDelay DEFAULT = new RetryDelay(5_000, 30_000);

  /**
   * The delay after {@code failuresInARow} (≥ 1) failed runs, with runs every {@code intervalMs}.
   */
  long afterFailures(int failuresInARow, long intervalMs) {
    int doublings = Math.min(Math.max(failuresInARow - 1, 0), 20);
    return Math.min(Math.min(firstMs << doublings, maxMs), intervalMs);
  }
}
