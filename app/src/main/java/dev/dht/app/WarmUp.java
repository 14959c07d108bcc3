package dev.dht.app;

import dev.dht.loadgen.warmup.UntilJitQuiet;
import dev.dht.loadgen.warmup.WarmUpPlan;
import java.io.IOException;
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

  /** PUT, GET and mixed: each workload runs once at least. */
  private static final int MIN_PHASES = 3;

  private WarmUp() {}

  static void run(int seconds, int rate) {
    Path dir = null;
    try {
      dir = Files.createTempDirectory("dht-warm-up");
      var untilQuiet = new UntilJitQuiet(WarmUpPlan.upTo(seconds * 1000L, MIN_PHASES));
      int failed = Training.run(dir, PHASE_SECONDS, rate, untilQuiet);
      log.info(
          "warmed up in {} ms: {} load phases of {} s at {} req/s, until the JIT was quiet or {} s"
              + " had passed{}",
          untilQuiet.elapsedMillis(),
          untilQuiet.phases(),
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
