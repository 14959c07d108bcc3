package dev.dht.loadgen.engine;

/**
 * The time frame of one run, in clock nanos. Requests due before {@code measureFromNanos} are
 * warm-up: sent, not reported. No slot due at or after {@code sendUntilNanos} is sent; at {@code
 * hardStopNanos} the run ends even if requests are still in flight. {@code maxSlots} bounds the
 * number of slots (the keyspace for a fill, otherwise unbounded). With {@code dropWarmupBacklog},
 * warm-up slots that are late are skipped rather than sent in a burst to catch up, so that a cold
 * JIT or a cold server neither overloads the system during the warm-up nor leaves a backlog that
 * delays the measured requests; a fill, which must write every key, keeps them.
 */
public record RunWindow(
    long startNanos,
    long measureFromNanos,
    long sendUntilNanos,
    long hardStopNanos,
    long maxSlots,
    boolean dropWarmupBacklog) {

  public RunWindow {
    if (!(startNanos <= measureFromNanos
        && measureFromNanos <= sendUntilNanos
        && sendUntilNanos <= hardStopNanos)) {
      throw new IllegalArgumentException("window out of order");
    }
    if (maxSlots < 0) {
      throw new IllegalArgumentException("maxSlots < 0");
    }
  }

  /** Whether a request due at {@code intendedNanos} counts in the results. */
  boolean isMeasured(long intendedNanos) {
    return intendedNanos >= measureFromNanos;
  }

  /** Warm-up: not measured. */
  static final int WARMUP = -1;

  /**
   * Which third (0, 1, 2) of the measured window a request due at {@code intendedNanos} falls in,
   * or {@link #WARMUP}.
   */
  int thirdOf(long intendedNanos) {
    if (!isMeasured(intendedNanos)) {
      return WARMUP;
    }
    long length = Math.max(sendUntilNanos - measureFromNanos, 1);
    return (int) Math.min(2, (intendedNanos - measureFromNanos) * 3 / length);
  }
}
