package dev.dht.node.repair;

/**
 * How soon a repair that could not reach every peer is tried again: 5 s after the first failure,
 * doubling to at most 30 s (and never later than the interval). Peers that start together (a new
 * cluster, a rollout) come up within seconds of each other, so the first run after a start
 * completes then, before clients' load, instead of half a minute later in the middle of it.
 */
final class RetryDelay {
  private static final long FIRST_MS = 5_000;
  private static final long MAX_MS = 30_000;

  private RetryDelay() {}

  /**
   * The delay after {@code failuresInARow} (≥ 1) failed runs, with runs every {@code intervalMs}.
   */
  static long afterFailures(int failuresInARow, long intervalMs) {
    int doublings = Math.min(Math.max(failuresInARow - 1, 0), 20);
    return Math.min(Math.min(FIRST_MS << doublings, MAX_MS), intervalMs);
  }
}
