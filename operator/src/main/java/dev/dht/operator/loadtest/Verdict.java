package dev.dht.operator.loadtest;

import dev.dht.operator.loadtest.DhtLoadTestSpec.Thresholds;
import dev.dht.operator.loadtest.DhtLoadTestStatus.Results;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.List;

/**
 * Passed or Failed: the run's results against the thresholds. An absent threshold is not checked; a
 * run without a single measured request never passes (it proves nothing). Pure.
 *
 * @param reason CamelCase reason of the Passed condition
 * @param message every check, the failed ones first
 * @param failures the failed checks only
 */
record Verdict(boolean passed, String reason, String message, List<String> failures) {
  static final String THRESHOLDS_MET = "ThresholdsMet";
  static final String NO_THRESHOLDS = "NoThresholds";
  static final String THRESHOLDS_EXCEEDED = "ThresholdsExceeded";
  static final String NO_REQUESTS = "NoRequests";
  static final String RUN_FAILED = "RunFailed";

  String text() {
    return passed ? DhtLoadTestStatus.PASSED : DhtLoadTestStatus.FAILED;
  }

  static Verdict judge(Results results, Thresholds thresholds) {
    long requests = results.getRequests() == null ? 0 : results.getRequests();
    if (requests == 0) {
      String why = "no request was measured: nothing to judge";
      return new Verdict(false, NO_REQUESTS, why, List.of(why));
    }
    if (thresholds == null
        || thresholds.getP99Ms() == null
            && thresholds.getP999Ms() == null
            && thresholds.getMaxErrorRatio() == null) {
      return new Verdict(true, NO_THRESHOLDS, "no thresholds set: the run completed", List.of());
    }
    var failures = new ArrayList<String>();
    var passes = new ArrayList<String>();
    var latency = results.getLatencyMs();
    latencyCheck(
        "p99", latency == null ? null : latency.getP99(), thresholds.getP99Ms(), failures, passes);
    latencyCheck(
        "p99.9",
        latency == null ? null : latency.getP999(),
        thresholds.getP999Ms(),
        failures,
        passes);
    if (thresholds.getMaxErrorRatio() != null) {
      long bad = orZero(results.getErrors()) + orZero(results.getNon2xx());
      double ratio = (double) bad / requests;
      String check =
          "error ratio "
              + format(ratio)
              + " ("
              + orZero(results.getErrors())
              + " errors + "
              + orZero(results.getNon2xx())
              + " non-2xx of "
              + requests
              + ")";
      if (ratio <= thresholds.getMaxErrorRatio()) {
        passes.add(check + " <= " + format(thresholds.getMaxErrorRatio()));
      } else {
        failures.add(check + " > " + format(thresholds.getMaxErrorRatio()));
      }
    }
    var all = new ArrayList<>(failures);
    all.addAll(passes);
    String message = String.join("; ", all);
    return failures.isEmpty()
        ? new Verdict(true, THRESHOLDS_MET, message, List.of())
        : new Verdict(false, THRESHOLDS_EXCEEDED, message, List.copyOf(failures));
  }

  /** The verdict of a run that produced no results. */
  static Verdict runFailed(String why) {
    String message = "the run failed: " + why;
    return new Verdict(false, RUN_FAILED, message, List.of(message));
  }

  private static void latencyCheck(
      String name, Double value, Double limit, List<String> failures, List<String> passes) {
    if (limit == null) {
      return;
    }
    if (value == null) {
      failures.add(name + " unknown (not measured), limit " + format(limit) + " ms");
    } else if (value <= limit) {
      passes.add(name + " " + format(value) + " ms <= " + format(limit) + " ms");
    } else {
      failures.add(name + " " + format(value) + " ms > " + format(limit) + " ms");
    }
  }

  private static long orZero(Long value) {
    return value == null ? 0 : value;
  }

  /** Shortest plain form: 4.1, 10, 0.0021 (never 1.0E-4). */
  static String format(Double value) {
    if (value == null) {
      return "n/a";
    }
    var decimal = BigDecimal.valueOf(value).round(new MathContext(6));
    return decimal.stripTrailingZeros().toPlainString();
  }
}
