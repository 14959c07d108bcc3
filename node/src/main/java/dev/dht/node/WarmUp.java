package dev.dht.node;

import java.io.IOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.function.IntPredicate;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node's warm-up before it serves ({@code --warm-up-s}): the {@link Training} load on three
 * scratch nodes in this JVM, in a temporary directory deleted afterwards. The JIT compiles the
 * request paths under that load, and the node that starts next runs the same classes: its first
 * clients meet compiled code instead of a JVM still compiling. Nothing of it is visible outside the
 * process (loopback ports, its own secret, its own files); a warm-up that fails only costs time.
 */
final class WarmUp {
  private static final Logger log = LoggerFactory.getLogger(WarmUp.class);

  private static final int PHASE_SECONDS = 2;

  private WarmUp() {}

  static void run(int seconds, int rate) {
    long start = System.nanoTime();
    Path dir = null;
    try {
      dir = Files.createTempDirectory("dht-warm-up");
      var untilQuiet = new UntilQuiet(WarmUpPlan.upTo(seconds * 1000L), start);
      int failed = Training.run(dir, PHASE_SECONDS, rate, null, untilQuiet);
      log.info(
          "warmed up in {} ms: {} load phases of {} s at {} req/s, until the JIT was quiet or {} s"
              + " had passed{}",
          (System.nanoTime() - start) / 1_000_000,
          untilQuiet.phases,
          PHASE_SECONDS,
          rate,
          seconds,
          failed == 0 ? "" : "; " + failed + " phases failed");
    } catch (Exception e) {
      log.warn("warm-up failed, serving anyway: {}", e.toString());
    } finally {
      if (dir != null) {
        delete(dir);
      }
    }
  }

  /** Asked before each load phase: another one while the plan says so, from the JIT's time. */
  private static final class UntilQuiet implements IntPredicate {
    private final WarmUpPlan plan;
    private final long start;
    private final CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
    private long phaseStart;
    private long compiledBefore = jit.getTotalCompilationTime();
    private int phases;

    UntilQuiet(WarmUpPlan plan, long start) {
      this.plan = plan;
      this.start = start;
      this.phaseStart = start;
    }

    @Override
    public boolean test(int phase) {
      long now = System.nanoTime();
      long compiled = jit.getTotalCompilationTime();
      long compiling = compiled - compiledBefore;
      long phaseMillis = (now - phaseStart) / 1_000_000;
      log.debug("warm-up phase {}: JIT {} ms of {} ms", phase, compiling, phaseMillis);
      phases = phase;
      phaseStart = now;
      compiledBefore = compiled;
      return plan.another(phase, (now - start) / 1_000_000, phaseMillis, compiling);
    }
  }

  private static void delete(Path dir) {
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      log.warn("could not delete the warm-up's directory {}: {}", dir, e.toString());
    }
  }
}
