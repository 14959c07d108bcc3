package dev.dht.loadgen.control;

/**
 * One generator's part of a test run by {@code count} generators at once: the rate is split evenly,
 * the connections as evenly as whole numbers allow (the first ones get one more), and each
 * generator draws its own random keys. Pure.
 */
public record GeneratorShare(int index, int count) {
  static final GeneratorShare ALONE = new GeneratorShare(0, 1);

  public GeneratorShare {
    if (count < 1 || index < 0 || index >= count) {
      throw new IllegalArgumentException(
          "generator index " + index + " is not in [0, " + count + ")");
    }
  }

  public double rate(double total) {
    return total / count;
  }

  public int connections(int total) {
    return total / count + (index < total % count ? 1 : 0);
  }

  /** The threads asked for, at most one per connection of this share. */
  public int threads(int threads, int totalConnections) {
    return Math.min(threads, connections(totalConnections));
  }

  /** Distinct per generator, the same for generator 0 as for a single one. */
  public long seed(long seed) {
    return seed + 1_000_003L * index;
  }
}
