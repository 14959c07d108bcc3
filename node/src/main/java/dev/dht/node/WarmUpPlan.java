package dev.dht.node;

/**
 * When the node's warm-up stops: once every workload ran ({@code minPhases}) and the JIT compilers
 * spent at most {@code quietShare} of the last phase compiling (the hot paths are compiled, what is
 * left is the trickle of a warm JVM), or when the time is up.
 */
record WarmUpPlan(long maxMillis, int minPhases, double quietShare) {
  static WarmUpPlan upTo(long maxMillis) {
    return new WarmUpPlan(maxMillis, 3, 0.1);
  }

  /** Whether another phase runs, after {@code phasesRun} phases in {@code elapsedMillis}. */
  boolean another(int phasesRun, long elapsedMillis, long lastPhaseMillis, long lastCompileMillis) {
    if (elapsedMillis >= maxMillis) {
      return false;
    }
    if (phasesRun < minPhases) {
      return true;
    }
    return lastCompileMillis > quietShare * lastPhaseMillis;
  }
}
