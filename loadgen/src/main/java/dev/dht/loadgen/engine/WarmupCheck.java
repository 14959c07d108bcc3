package dev.dht.loadgen.engine;

/**
 * Whether a run was warmed up: its latency was not still falling during the measured window. It was
 * still falling when the p99 of the window's first third is at least {@value #FACTOR} times that of
 * its last third and at least {@value #MIN_GAP_MS} ms above it (below that, noise at
 * sub-millisecond latencies would count). A cold JIT, cold caches or a node still starting make the
 * first third slow; a longer warm-up (or a warm image) fixes it. Pure.
 */
final class WarmupCheck {
  static final double FACTOR = 2.0;
  static final double MIN_GAP_MS = 1.0;

  private WarmupCheck() {}

  static boolean warmedUp(double firstThirdP99Ms, double lastThirdP99Ms) {
    boolean stillFalling =
        firstThirdP99Ms >= FACTOR * lastThirdP99Ms
            && firstThirdP99Ms - lastThirdP99Ms >= MIN_GAP_MS;
    return !stillFalling;
  }
}
