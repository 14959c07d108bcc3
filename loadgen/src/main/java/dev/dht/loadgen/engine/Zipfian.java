package dev.dht.loadgen.engine;

import java.util.random.RandomGenerator;

/**
 * Zipfian key indexes over {@code [0, n)} (index 0 most popular) by the rejection-free method of
 * Gray et al., "Quickly Generating Billion-Record Synthetic Databases" (SIGMOD 1994), as used by
 * YCSB. Immutable and thread-safe; the random source is supplied per call.
 */
final class Zipfian implements KeyChooser {
  /** Above this many terms, zeta(n) is finished with an integral (relative error below 1e-9). */
  static final long EXACT_ZETA_TERMS = 10_000_000L;

  private final long n;
  private final double theta;
  private final double alpha;
  private final double zetaN;
  private final double eta;
  private final double secondThreshold;

  Zipfian(long n, double theta) {
    if (n < 1) {
      throw new IllegalArgumentException("n must be >= 1");
    }
    if (!(theta > 0 && theta < 1)) {
      throw new IllegalArgumentException("theta must be in (0, 1), got " + theta);
    }
    this.n = n;
    this.theta = theta;
    this.alpha = 1.0 / (1.0 - theta);
    this.zetaN = zeta(n, theta, EXACT_ZETA_TERMS);
    double zeta2 = 1.0 + Math.pow(0.5, theta);
    this.eta = (1.0 - Math.pow(2.0 / n, 1.0 - theta)) / (1.0 - zeta2 / zetaN);
    this.secondThreshold = zeta2;
  }

  double theta() {
    return theta;
  }

  /** The probability of index {@code i}: {@code (i+1)^-theta / zeta(n)}. */
  double probability(long i) {
    return Math.pow(i + 1.0, -theta) / zetaN;
  }

  @Override
  public long next(RandomGenerator random) {
    double u = random.nextDouble();
    double uz = u * zetaN;
    if (uz < 1.0) {
      return 0;
    }
    if (uz < secondThreshold) {
      return Math.min(1, n - 1);
    }
    long v = (long) (n * Math.pow(eta * u - eta + 1.0, alpha));
    return Math.min(Math.max(v, 0), n - 1);
  }

  /**
   * {@code sum_{i=1..n} i^-theta}: exact for the first {@code exactTerms} terms, the rest by the
   * midpoint rule {@code integral_{m+1/2}^{n+1/2} x^-theta dx}, accurate because the tail is
   * smooth.
   */
  static double zeta(long n, double theta, long exactTerms) {
    long m = Math.min(n, exactTerms);
    double sum = 0;
    for (long i = 1; i <= m; i++) {
      sum += Math.pow(i, -theta);
    }
    if (n > m) {
      double e = 1.0 - theta;
      sum += (Math.pow(n + 0.5, e) - Math.pow(m + 0.5, e)) / e;
    }
    return sum;
  }
}
