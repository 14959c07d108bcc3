package dev.dht.loadgen.engine;

import static dev.dht.loadgen.engine.LatencyRecorder.Count;

import java.util.Collections;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * The measured outcome of a run (warm-up excluded). Latency histograms are in microseconds; {@code
 * latency} is measured from intended send times, {@code uncorrected} from actual send times. {@code
 * dropped} are requests still in flight when the run was cut. {@code p99ByThirdMs}: the p99 of the
 * requests due in each third of the measured window, in milliseconds. {@code windowStartMs} and
 * {@code windowEndMs}: the measured window on the wall clock (epoch milliseconds), so that the
 * windows of generators that ran together can be compared.
 */
public record RunResult(
    LoadConfig config,
    double durationSeconds,
    long requests,
    long ok,
    long notFound,
    long non2xx,
    long connectErrors,
    long timeouts,
    long ioErrors,
    long dropped,
    long bodyBytes,
    SortedMap<Integer, Long> statusCounts,
    Histogram latency,
    Histogram uncorrected,
    List<Double> threadRateSamples,
    List<Double> p99ByThirdMs,
    long windowStartMs,
    long windowEndMs) {

  public RunResult {
    statusCounts = Collections.unmodifiableSortedMap(new TreeMap<>(statusCounts));
    threadRateSamples = List.copyOf(threadRateSamples);
    p99ByThirdMs = List.copyOf(p99ByThirdMs);
    if (p99ByThirdMs.size() != 3) {
      throw new IllegalArgumentException("three thirds");
    }
  }

  /** Whether latency had stopped falling by the measured window ({@link WarmupCheck}). */
  public boolean warmedUp() {
    return WarmupCheck.warmedUp(p99ByThirdMs.get(0), p99ByThirdMs.get(2));
  }

  /** Requests that got no HTTP response: connect errors, timeouts, I/O errors, dropped. */
  public long errors() {
    return connectErrors + timeouts + ioErrors + dropped;
  }

  public double achievedRate() {
    return durationSeconds > 0 ? requests / durationSeconds : 0;
  }

  /** Latency at a percentile (0..100) in milliseconds. */
  public double latencyMs(double percentile) {
    return latency.getTotalCount() == 0 ? 0 : latency.getValueAtPercentile(percentile) / 1000.0;
  }

  public double meanMs() {
    return latency.getTotalCount() == 0 ? 0 : latency.getMean() / 1000.0;
  }

  public double maxMs() {
    return latency.getTotalCount() == 0 ? 0 : latency.getMaxValue() / 1000.0;
  }

  /**
   * Sums the recorders of all event loops once they are closed. The measured duration is the
   * configured one, except for a fill, which lasts until its last answer, and for an aborted run,
   * which lasts until it was cut. {@code epochOffsetNanos} turns clock nanos into epoch nanos.
   */
  static RunResult collect(
      LoadConfig config,
      RunWindow window,
      List<LatencyRecorder> recorders,
      List<Double> threadRateSamples,
      long endNanos,
      long epochOffsetNanos,
      boolean aborted) {
    Histogram latency = LatencyRecorder.newHistogram();
    Histogram uncorrected = LatencyRecorder.newHistogram();
    List<Histogram> thirds =
        List.of(
            LatencyRecorder.newHistogram(),
            LatencyRecorder.newHistogram(),
            LatencyRecorder.newHistogram());
    long[] sums = new long[Count.values().length];
    SortedMap<Integer, Long> statuses = new TreeMap<>();
    long lastCompletion = Long.MIN_VALUE;
    for (LatencyRecorder r : recorders) {
      uncorrected.add(r.uncorrectedTotal());
      for (int t = 0; t < 3; t++) {
        Histogram third = r.correctedThird(t);
        thirds.get(t).add(third);
        latency.add(third);
      }
      for (Count c : Count.values()) {
        sums[c.ordinal()] += r.count(c);
      }
      for (int s = 0; s < LatencyRecorder.statusSlots(); s++) {
        long n = r.statusCount(s);
        if (n > 0) {
          statuses.merge(s, n, Long::sum);
        }
      }
      lastCompletion = Math.max(lastCompletion, r.lastCompletionNanos());
    }
    double seconds;
    if (config.workload() == Workload.FILL) {
      long end = lastCompletion == Long.MIN_VALUE ? endNanos : lastCompletion;
      seconds = Math.max(end - window.measureFromNanos(), 1) / 1e9;
    } else if (aborted) {
      long end = Math.min(endNanos, window.sendUntilNanos());
      seconds = Math.max(end - window.measureFromNanos(), 1) / 1e9;
    } else {
      seconds = config.duration().toNanos() / 1e9;
    }
    return new RunResult(
        config,
        seconds,
        sums[Count.RESPONSES.ordinal()],
        sums[Count.OK.ordinal()],
        sums[Count.NOT_FOUND.ordinal()],
        sums[Count.NON_2XX.ordinal()],
        sums[Count.CONNECT_ERRORS.ordinal()],
        sums[Count.TIMEOUTS.ordinal()],
        sums[Count.IO_ERRORS.ordinal()],
        Math.max(sums[Count.IN_FLIGHT.ordinal()], 0),
        sums[Count.BODY_BYTES.ordinal()],
        statuses,
        latency,
        uncorrected,
        threadRateSamples,
        thirds.stream().map(RunResult::p99Ms).toList(),
        (window.measureFromNanos() + epochOffsetNanos) / 1_000_000,
        (Math.min(endNanos, window.sendUntilNanos()) + epochOffsetNanos) / 1_000_000);
  }

  private static double p99Ms(Histogram h) {
    return h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(99) / 1000.0;
  }
}
