package dev.dht.operator.loadtest.job;

import java.util.List;
import java.util.Set;

/**
 * The next step with the generators of a parallel test, from what each reports: give them all one
 * start time once every one of them is up and waiting, give it again to any that missed it, and
 * collect the result of each that has finished. Pure.
 *
 * @param startAt the start time in effect (epoch ms), null while some generator is not yet waiting
 * @param toStart the generators to give {@code startAt}
 * @param toCollect finished generators whose result is not stored yet
 * @param waiting what the start waits for (null once started)
 */
public record Coordination(
    Long startAt,
    List<GeneratorProgress> toStart,
    List<GeneratorProgress> toCollect,
    String waiting) {

  /** Time for the start to reach every generator and for each to open its connections. */
  static final long START_MARGIN_MS = 3_000;

  static Coordination next(
      int count,
      List<GeneratorProgress> seen,
      Long knownStartAt,
      Set<Integer> collected,
      long nowMs) {
    Long startAt = knownStartAt;
    if (startAt == null) {
      startAt =
          seen.stream()
              .map(GeneratorProgress::startAt)
              .filter(a -> a != null)
              .findFirst()
              .orElse(null);
    }
    var waiting = seen.stream().filter(g -> "waiting".equals(g.phase())).toList();
    var toCollect =
        seen.stream()
            .filter(g -> "done".equals(g.phase()) && !collected.contains(g.index()))
            .toList();
    if (startAt != null) {
      return new Coordination(startAt, waiting, toCollect, null);
    }
    long ready = waiting.stream().map(GeneratorProgress::index).distinct().count();
    if (ready == count) {
      return new Coordination(nowMs + START_MARGIN_MS, waiting, toCollect, null);
    }
    return new Coordination(
        null,
        List.of(),
        toCollect,
        ready + " of " + count + " generators up and waiting for the start");
  }
}
