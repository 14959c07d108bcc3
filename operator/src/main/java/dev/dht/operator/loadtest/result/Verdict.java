package dev.dht.operator.loadtest.result;

import dev.dht.operator.loadtest.Comparison;
import dev.dht.operator.loadtest.DhtLoadTestSpec;
import dev.dht.operator.loadtest.DhtLoadTestSpec.Thresholds;
import dev.dht.operator.loadtest.DhtLoadTestStatus;
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
public record Verdict(boolean passed, String reason, String message, List<String> failures) {
  static final String THRESHOLDS_MET = "ThresholdsMet";
  static final String NO_THRESHOLDS = "NoThresholds";
  static final String THRESHOLDS_EXCEEDED = "ThresholdsExceeded";
  static final String NO_REQUESTS = "NoRequests";
  static final String RUN_FAILED = "RunFailed";
  static final String REGRESSED = "Regressed";

  public String text() {
    return passed ? DhtLoadTestStatus.PASSED : DhtLoadTestStatus.FAILED;
  }

  public static Verdict judge(Results results, Thresholds thresholds) {
    return judge(results, thresholds, null);
  }

  /**
   * As above, with the comparison with the baseline (null: none) for {@code thresholds.regression}.
   * The reason says which kind of rule decided: ThresholdsExceeded when an absolute limit failed,
   * Regressed when only regression limits did.
   */
  public static Verdict judge(Results results, Thresholds thresholds, Comparison comparison) {
    long requests = results.getRequests() == null ? 0 : results.getRequests();
    if (requests == 0) {
      String why = "no request was measured: nothing to judge";
      return new Verdict(false, NO_REQUESTS, why, List.of(why));
    }
    boolean regression =
        thresholds != null
            && thresholds.getRegression() != null
            && thresholds.getRegression().any();
    if (thresholds == null
        || thresholds.getP99Ms() == null
            && thresholds.getP999Ms() == null
            && thresholds.getMaxErrorRatio() == null
            && !regression) {
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
    int absoluteFailures = failures.size();
    if (regression) {
      regressionChecks(thresholds.getRegression(), comparison, failures, passes);
    }
    var all = new ArrayList<>(failures);
    all.addAll(passes);
    String message = String.join("; ", all);
    if (failures.isEmpty()) {
      return new Verdict(true, THRESHOLDS_MET, message, List.of());
    }
    return new Verdict(
        false,
        absoluteFailures > 0 ? THRESHOLDS_EXCEEDED : REGRESSED,
        message,
        List.copyOf(failures));
  }

  private static void regressionChecks(
      DhtLoadTestSpec.Regression limits,
      Comparison comparison,
      List<String> failures,
      List<String> passes) {
    if (comparison == null) {
      failures.add("regression limits set, but there is no baseline to compare with");
      return;
    }
    latencyRegression("p50", limits.getP50Percent(), comparison, failures, passes);
    latencyRegression("p99", limits.getP99Percent(), comparison, failures, passes);
    latencyRegression("p99.9", limits.getP999Percent(), comparison, failures, passes);
    Double drop = limits.getAchievedRatePercent();
    if (drop != null) {
      var row = comparison.row("achievedRate");
      if (row == null || row.getChangePercent() == null) {
        failures.add("achieved rate not comparable with baseline " + comparison.getBaseline());
      } else {
        String check =
            "achieved rate "
                + format(row.getCurrent())
                + " req/s vs baseline "
                + format(row.getBaseline())
                + " req/s ("
                + signed(row.getChangePercent())
                + "%)";
        if (row.getChangePercent() >= -drop) {
          passes.add(check + " >= -" + format(drop) + "% allowed");
        } else {
          failures.add(check + " < -" + format(drop) + "% allowed (regression)");
        }
      }
    }
  }

  private static void latencyRegression(
      String metric,
      Double limit,
      Comparison comparison,
      List<String> failures,
      List<String> passes) {
    if (limit == null) {
      return;
    }
    var row = comparison.row(metric);
    if (row == null || row.getChangePercent() == null) {
      failures.add(metric + " not comparable with baseline " + comparison.getBaseline());
      return;
    }
    String check =
        metric
            + " "
            + format(row.getCurrent())
            + " ms vs baseline "
            + format(row.getBaseline())
            + " ms ("
            + signed(row.getChangePercent())
            + "%)";
    if (row.getChangePercent() <= limit) {
      passes.add(check + " <= +" + format(limit) + "% allowed");
    } else {
      failures.add(check + " > +" + format(limit) + "% allowed (regression)");
    }
  }

  private static String signed(Double percent) {
    return (percent >= 0 ? "+" : "") + format(percent);
  }

  /** The verdict of a run that produced no results. */
  public static Verdict runFailed(String why) {
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
  public static String format(Double value) {
    if (value == null) {
      return "n/a";
    }
    var decimal = BigDecimal.valueOf(value).round(new MathContext(6));
    return decimal.stripTrailingZeros().toPlainString();
  }
}
