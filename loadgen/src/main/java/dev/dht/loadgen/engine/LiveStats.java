package dev.dht.loadgen.engine;

import org.HdrHistogram.Histogram;

/**
 * Where a run stands, as of the last whole second: published by {@link Progress} once a second for
 * the control server (its {@code /progress} and {@code /metrics}). The measured counts are those of
 * the requests due in the measured window so far; the {@code all*} ones include the warm-up. The
 * histograms (microseconds) are copies, read-only for their consumer; {@code measured} holds the
 * latencies of the measured requests answered so far, as the final result will.
 */
public record LiveStats(
    boolean measuring,
    double elapsedSeconds,
    double measuredSeconds,
    long requests,
    long errors,
    long non2xx,
    double lastSecondRate,
    long allResponses,
    long allFailures,
    long allNon2xx,
    Histogram measured,
    Histogram all) {

  public static final LiveStats NONE =
      new LiveStats(false, 0, 0, 0, 0, 0, 0, 0, 0, 0, new Histogram(3), new Histogram(3));
}
