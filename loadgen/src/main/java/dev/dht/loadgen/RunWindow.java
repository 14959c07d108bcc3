package dev.dht.loadgen;

/**
 * The time frame of one run, in clock nanos. Requests due before {@code measureFromNanos} and
 * answered before it are warm-up (not reported; a backlog left by the warm-up is, with its latency
 * measured from the intended send times); no slot due at or after {@code sendUntilNanos} is sent;
 * at {@code hardStopNanos} the run ends even if requests are still in flight. {@code maxSlots}
 * bounds the number of slots (the keyspace for a fill, otherwise unbounded).
 */
record RunWindow(
    long startNanos,
    long measureFromNanos,
    long sendUntilNanos,
    long hardStopNanos,
    long maxSlots) {

  RunWindow {
    if (!(startNanos <= measureFromNanos
        && measureFromNanos <= sendUntilNanos
        && sendUntilNanos <= hardStopNanos)) {
      throw new IllegalArgumentException("window out of order");
    }
    if (maxSlots < 0) {
      throw new IllegalArgumentException("maxSlots < 0");
    }
  }

  /**
   * Whether a request due at {@code intendedNanos} and answered (or failed) at {@code
   * completionNanos} counts in the results.
   */
  boolean isMeasured(long intendedNanos, long completionNanos) {
    return intendedNanos >= measureFromNanos || completionNanos >= measureFromNanos;
  }
}
