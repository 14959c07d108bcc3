package dev.dht.node.replication;

/**
 * The 99th percentile of the last {@value #WINDOW} samples of a latency, recomputed every {@value
 * #EVERY} samples; a default until the window first fills. Pure, for one event loop.
 */
final class RecentP99 {
  static final int WINDOW = 512;
  static final int EVERY = 128;

  private final long[] samples = new long[WINDOW];
  private final long[] sorted = new long[WINDOW];
  private long count;
  private long p99;

  RecentP99(long initial) {
    this.p99 = initial;
  }

  void add(long sample) {
    samples[(int) (count++ % WINDOW)] = sample;
    if (count >= WINDOW && count % EVERY == 0) {
      System.arraycopy(samples, 0, sorted, 0, WINDOW);
      java.util.Arrays.sort(sorted);
      p99 = sorted[WINDOW * 99 / 100];
    }
  }

  long p99() {
    return p99;
  }
}
