package dev.dht.loadgen.warmup;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.function.IntPredicate;

/**
 * Asked before each load phase of a warm-up: another one while the {@link WarmUpPlan} says so, from
 * the time this JVM's JIT compilers spent compiling during the last phase.
 */
public final class UntilJitQuiet implements IntPredicate {
  private final WarmUpPlan plan;
  private final CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
  private final long start = System.nanoTime();
  private long phaseStart = start;
  private long compiledBefore = jit.getTotalCompilationTime();
  private int phases;

  public UntilJitQuiet(WarmUpPlan plan) {
    this.plan = plan;
  }

  @Override
  public boolean test(int phase) {
    long now = System.nanoTime();
    long compiled = jit.getTotalCompilationTime();
    long phaseMillis = (now - phaseStart) / 1_000_000;
    long compiling = compiled - compiledBefore;
    phases = phase;
    phaseStart = now;
    compiledBefore = compiled;
    return plan.another(phase, (now - start) / 1_000_000, phaseMillis, compiling);
  }

  /** The load phases run so far. */
  public int phases() {
    return phases;
  }

  /** Milliseconds since this warm-up began. */
  public long elapsedMillis() {
    return (System.nanoTime() - start) / 1_000_000;
  }
}
