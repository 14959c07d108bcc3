package dev.dht.loadgen.warmup;

/**
 * When a warm-up stops (a node's before it serves, the generator's before it sends): once {@code
 * minPhases} load phases ran and the JIT compilers spent at most {@code quietShare} of the last
 * phase compiling (the hot paths are compiled, what is left is the trickle of a warm JVM), or when
 * the time is up.
 */
public record WarmUpPlan(long maxMillis, int minPhases, double quietShare) {
  /** At most {@code maxMillis}, at least {@code minPhases}, until compiling takes ≤ 10%. */
  public static WarmUpPlan upTo(long maxMillis, int minPhases) {
    return new WarmUpPlan(maxMillis, minPhases, 0.1);
  }

  /** Whether another phase runs, after {@code phasesRun} phases in {@code elapsedMillis}. */
  public boolean another(
      int phasesRun, long elapsedMillis, long lastPhaseMillis, long lastCompileMillis) {
    if (elapsedMillis >= maxMillis) {
      return false;
    }
    if (phasesRun < minPhases) {
      return true;
    }
    return lastCompileMillis > quietShare * lastPhaseMillis;
  }
}
