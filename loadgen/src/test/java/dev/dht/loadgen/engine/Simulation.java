package dev.dht.loadgen.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.LongUnaryOperator;

/**
 * Drives the real {@link RequestLoop}s against a simulated server on a {@link FakeEventLoop}: the
 * server answers a request sent at {@code t} at {@code responseAt(t)}.
 */
final class Simulation {
  static final long MS = 1_000_000L;
  static final long SECOND = 1_000_000_000L;

  final FakeEventLoop loop = new FakeEventLoop();
  final LatencyRecorder recorder = new LatencyRecorder();
  final List<Long> sendTimes = new ArrayList<>();
  int done;
  private boolean keepWarmupBacklog;

  /** Sends the warm-up slots that are late when the warm-up ends, as a fill does. */
  Simulation keepingWarmupBacklog() {
    keepWarmupBacklog = true;
    return this;
  }

  /** Runs {@code connections} loops at {@code rate} for warm-up + duration; returns this. */
  Simulation run(
      double rate,
      int connections,
      long warmupNanos,
      long durationNanos,
      LongUnaryOperator responseAt,
      long maxSlots) {
    return run(rate, connections, warmupNanos, durationNanos, responseAt, maxSlots, 0);
  }

  /** As above, with send timers armed {@code earlyNanos} before the intended times. */
  Simulation run(
      double rate,
      int connections,
      long warmupNanos,
      long durationNanos,
      LongUnaryOperator responseAt,
      long maxSlots,
      long earlyNanos) {
    long start = 10 * MS;
    Schedule schedule = new Schedule(rate, start);
    long sendUntil = start + warmupNanos + durationNanos;
    RunWindow window =
        new RunWindow(
            start,
            start + warmupNanos,
            sendUntil,
            sendUntil + SECOND,
            maxSlots,
            !keepWarmupBacklog);
    KeyUris uris = new KeyUris("k", 1000, null, null);
    RequestPlanner planner =
        new RequestPlanner(
            Workload.PUT, KeyChooser.uniform(1000), 0, new SplittableRandom(1), uris);
    Transport transport =
        (request, callback) -> {
          long sent = loop.getAsLong();
          sendTimes.add(sent);
          loop.at(responseAt.applyAsLong(sent), () -> callback.onResponse(201, 0));
        };
    for (int c = 0; c < connections; c++) {
      new RequestLoop(
              schedule,
              window,
              c,
              connections,
              planner,
              transport,
              loop,
              loop,
              recorder,
              earlyNanos,
              () -> done++)
          .start();
    }
    loop.runAll();
    return this;
  }

  /**
   * A server that answers after {@code serviceNanos}, but not before {@code stallEnd} when a
   * request arrives during {@code [stallStart, stallEnd)}.
   */
  static LongUnaryOperator stallingServer(long serviceNanos, long stallStart, long stallEnd) {
    return t -> (t >= stallStart && t < stallEnd ? stallEnd : t) + serviceNanos;
  }
}
