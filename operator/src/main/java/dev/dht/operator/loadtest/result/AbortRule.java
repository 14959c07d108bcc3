package dev.dht.operator.loadtest.result;

import dev.dht.operator.loadtest.DhtLoadTestSpec;
import java.util.Optional;
import org.HdrHistogram.Histogram;

/**
 * {@code thresholds.abortOnFail}: stop a run only once its verdict is decided, that is when no
 * outcome of the rest of the run can meet a threshold any more. For p99 that is when more than 1%
 * of all the requests the test will measure (rate × duration) already took longer than the limit;
 * for p99.9, 0.1%; for the error ratio, when more requests already failed than the limit allows
 * over the whole run. A slow second aborts only if it alone already decides the verdict. Pure.
 */
public final class AbortRule {
  private AbortRule() {}

  /**
   * Why the run should stop now, or empty.
   *
   * @param expected the requests the test will measure in all
   * @param measured the measured latencies so far (microseconds)
   * @param failed measured requests that failed so far (errors + non-2xx)
   */
  public static Optional<String> check(
      DhtLoadTestSpec.Thresholds thresholds, double expected, Histogram measured, long failed) {
    if (thresholds == null || !Boolean.TRUE.equals(thresholds.getAbortOnFail()) || expected <= 0) {
      return Optional.empty();
    }
    if (thresholds.getMaxErrorRatio() != null) {
      double allowed = thresholds.getMaxErrorRatio() * expected;
      if (failed > allowed) {
        return Optional.of(
            failed
                + " requests failed already, more than maxErrorRatio "
                + Verdict.format(thresholds.getMaxErrorRatio())
                + " allows of the "
                + Math.round(expected)
                + " the test measures");
      }
    }
    var p99 = slower(measured, thresholds.getP99Ms(), 0.01, expected, "p99");
    if (p99.isPresent()) {
      return p99;
    }
    return slower(measured, thresholds.getP999Ms(), 0.001, expected, "p99.9");
  }

  private static Optional<String> slower(
      Histogram measured, Double limitMs, double share, double expected, String name) {
    if (limitMs == null || measured.getTotalCount() == 0) {
      return Optional.empty();
    }
    // values within the limit's equivalence range count as within it: this errs towards running on
    long within = measured.getCountBetweenValues(0, (long) Math.floor(limitMs * 1000));
    long slower = measured.getTotalCount() - within;
    if (slower <= share * expected) {
      return Optional.empty();
    }
    return Optional.of(
        name
            + " can no longer be "
            + Verdict.format(limitMs)
            + " ms or less: "
            + slower
            + " requests took longer already, more than "
            + Verdict.format(share * 100)
            + "% of the "
            + Math.round(expected)
            + " the test measures");
  }
}
