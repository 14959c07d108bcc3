package dev.dht.loadgen.engine;

/**
 * Intended send times of an open-model, constant-rate load: slot {@code i} is due at {@code start +
 * i / rate}, whatever happened to earlier slots. Connections take interleaved slots, so the whole
 * run is evenly spaced. Pure: no clock, no I/O.
 */
final class Schedule {
  private final long startNanos;
  private final double periodNanos;
  private final double ratePerSecond;

  Schedule(double ratePerSecond, long startNanos) {
    if (!(ratePerSecond > 0) || Double.isInfinite(ratePerSecond)) {
      throw new IllegalArgumentException("rate must be > 0, got " + ratePerSecond);
    }
    this.ratePerSecond = ratePerSecond;
    this.startNanos = startNanos;
    this.periodNanos = 1e9 / ratePerSecond;
  }

  long startNanos() {
    return startNanos;
  }

  double ratePerSecond() {
    return ratePerSecond;
  }

  /** When slot {@code slot} (0-based) should be sent. */
  long intendedNanos(long slot) {
    return startNanos + (long) (slot * periodNanos);
  }

  /** How many slots are due strictly before {@code nanos}. */
  long slotsDueBefore(long nanos) {
    if (nanos <= startNanos) {
      return 0;
    }
    long n = (long) Math.ceil((nanos - startNanos) / periodNanos);
    // Correct the floating-point edge so that intendedNanos(n - 1) < nanos <= intendedNanos(n).
    while (n > 0 && intendedNanos(n - 1) >= nanos) {
      n--;
    }
    while (intendedNanos(n) < nanos) {
      n++;
    }
    return n;
  }
}
