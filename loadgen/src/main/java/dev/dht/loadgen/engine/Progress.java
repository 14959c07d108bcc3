package dev.dht.loadgen.engine;

import static dev.dht.loadgen.engine.LatencyRecorder.Count;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;

/**
 * The once-a-second progress line (achieved rate, errors, non-2xx, p99 of that second) and the
 * per-thread rate samples of the measured seconds, for wrk2's "Req/Sec" line. Called from the
 * runner's thread only.
 */
final class Progress {
  private final List<LatencyRecorder> recorders;
  private final RunWindow window;
  private final PrintWriter out;
  private final long[][] previous;
  private final Histogram interval = LatencyRecorder.newHistogram();
  private final List<Double> threadRateSamples = new ArrayList<>();
  private final Histogram[] recycledWarmup;
  private final Histogram[] recycledMeasured;
  private final Histogram measuredInterval = LatencyRecorder.newHistogram();
  private final Consumer<LiveStats> live;
  private final Histogram measuredSoFar = new Histogram(3);
  private final Histogram allSoFar = new Histogram(3);
  private long allResponses;
  private long allFailures;
  private long allNon2xx;
  private long lastTickNanos;

  Progress(List<LatencyRecorder> recorders, RunWindow window, PrintWriter out) {
    this(recorders, window, out, stats -> {});
  }

  /** {@code live} gets where the run stands after each second. */
  Progress(
      List<LatencyRecorder> recorders,
      RunWindow window,
      PrintWriter out,
      Consumer<LiveStats> live) {
    this.recorders = recorders;
    this.window = window;
    this.out = out;
    this.live = live;
    this.previous = new long[recorders.size()][Count.values().length];
    this.lastTickNanos = window.startNanos();
    this.recycledWarmup = new Histogram[recorders.size()];
    this.recycledMeasured = new Histogram[recorders.size()];
  }

  /** Closes the second that ends at {@code nowNanos}. */
  void tick(long nowNanos) {
    double seconds = (nowNanos - lastTickNanos) / 1e9;
    if (seconds <= 0) {
      return;
    }
    boolean measured = lastTickNanos >= window.measureFromNanos();
    boolean warmup = lastTickNanos < window.measureFromNanos();
    long responses = 0;
    long failures = 0;
    long non2xx = 0;
    interval.reset();
    measuredInterval.reset();
    for (int i = 0; i < recorders.size(); i++) {
      LatencyRecorder r = recorders.get(i);
      long dr = delta(i, r, Count.ALL_RESPONSES);
      responses += dr;
      failures += delta(i, r, Count.ALL_FAILURES);
      non2xx += delta(i, r, Count.ALL_NON_2XX);
      recycledWarmup[i] = r.warmupInterval(recycledWarmup[i]);
      recycledMeasured[i] = r.measuredInterval(recycledMeasured[i]);
      interval.add(recycledWarmup[i]);
      interval.add(recycledMeasured[i]);
      measuredInterval.add(recycledMeasured[i]);
      if (measured && nowNanos <= window.sendUntilNanos()) {
        threadRateSamples.add(dr / seconds);
      }
    }
    allResponses += responses;
    allFailures += failures;
    allNon2xx += non2xx;
    allSoFar.add(interval);
    measuredSoFar.add(measuredInterval);
    publish(nowNanos, responses / seconds);
    lastTickNanos = nowNanos;
    if (out != null) {
      long elapsed = Math.round((nowNanos - window.startNanos()) / 1e9);
      double p99 = interval.getTotalCount() == 0 ? 0 : interval.getValueAtPercentile(99) / 1000.0;
      out.printf(
          Locale.ROOT,
          "[%4ds] %8.0f req/s  errors %d  non2xx %d  p99 %.3f ms%s\n",
          elapsed,
          responses / seconds,
          failures,
          non2xx,
          p99,
          warmup ? "  (warm-up)" : "");
      out.flush();
    }
  }

  private void publish(long nowNanos, double lastSecondRate) {
    long requests = 0;
    long errors = 0;
    long non2xx = 0;
    for (LatencyRecorder r : recorders) {
      requests += r.count(Count.RESPONSES);
      errors += r.count(Count.CONNECT_ERRORS) + r.count(Count.TIMEOUTS) + r.count(Count.IO_ERRORS);
      non2xx += r.count(Count.NON_2XX);
    }
    long measuredNanos =
        Math.max(0, Math.min(nowNanos, window.sendUntilNanos()) - window.measureFromNanos());
    live.accept(
        new LiveStats(
            nowNanos >= window.measureFromNanos(),
            (nowNanos - window.startNanos()) / 1e9,
            measuredNanos / 1e9,
            requests,
            errors,
            non2xx,
            lastSecondRate,
            allResponses,
            allFailures,
            allNon2xx,
            measuredSoFar.copy(),
            allSoFar.copy()));
  }

  List<Double> threadRateSamples() {
    return threadRateSamples;
  }

  private long delta(int i, LatencyRecorder r, Count c) {
    long now = r.count(c);
    long d = now - previous[i][c.ordinal()];
    previous[i][c.ordinal()] = now;
    return d;
  }
}
