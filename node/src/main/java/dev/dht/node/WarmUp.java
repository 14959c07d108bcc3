package dev.dht.node;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
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
      var plan = WarmUpPlan.upTo(seconds * 1000L);
      var jit = ManagementFactory.getCompilationMXBean();
      long[] last = {start, jit.getTotalCompilationTime()};
      int[] phases = {0};
      int failed =
          Training.run(
              dir,
              PHASE_SECONDS,
              rate,
              null,
              phase -> {
                long now = System.nanoTime();
                long compiled = jit.getTotalCompilationTime();
                boolean another =
                    plan.another(
                        phase,
                        (now - start) / 1_000_000,
                        (now - last[0]) / 1_000_000,
                        compiled - last[1]);
                log.debug("warm-up phase {}: JIT {} ms", phase, compiled - last[1]);
                last[0] = now;
                last[1] = compiled;
                phases[0] = phase;
                return another;
              });
      log.info(
          "warmed up in {} ms: {} load phases of {} s at {} req/s, until the JIT was quiet or {} s"
              + " had passed{}",
          (System.nanoTime() - start) / 1_000_000,
          phases[0],
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

  private static void delete(Path dir) {
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      log.warn("could not delete the warm-up's directory {}: {}", dir, e.toString());
    }
  }
}
