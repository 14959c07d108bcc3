package dev.dht.operator.loadtest.result;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.operator.loadtest.Comparison;
import dev.dht.operator.loadtest.DhtLoadTestSpec.Regression;
import dev.dht.operator.loadtest.DhtLoadTestSpec.Thresholds;
import dev.dht.operator.loadtest.LoadTests;
import org.junit.jupiter.api.Test;

/** thresholds.regression: the verdict on a run against its baseline. */
class RegressionTest {
  private static Thresholds regression(Double p99Percent, Double ratePercent) {
    var r = new Regression();
    r.setP99Percent(p99Percent);
    r.setAchievedRatePercent(ratePercent);
    var t = new Thresholds();
    t.setRegression(r);
    return t;
  }

  @Test
  void aRegressionBeyondItsLimitFailsAndTheVerdictSaysWhichRuleDecided() {
    var current = LoadTests.results(9_990, 1.0, 12.5, 10.0, 160.0);
    var c = Comparison.of("v1", LoadTests.BASELINE, current);
    var verdict = Verdict.judge(current, regression(20.0, 5.0), c);
    assertThat(verdict.passed()).isFalse();
    assertThat(verdict.reason()).isEqualTo(Verdict.REGRESSED);
    assertThat(verdict.failures())
        .containsExactly("p99 12.5 ms vs baseline 10 ms (+25%) > +20% allowed (regression)");
    assertThat(verdict.message()).contains("achieved rate 9990 req/s vs baseline 10000 req/s");

    var within = LoadTests.results(9_990, 1.0, 11.9, 10.0, 160.0);
    var ok =
        Verdict.judge(
            within, regression(20.0, 5.0), Comparison.of("v1", LoadTests.BASELINE, within));
    assertThat(ok.passed()).isTrue();
    assertThat(ok.message()).contains("(+19%) <= +20% allowed");
  }

  @Test
  void anAbsoluteLimitDecidesBeforeARegression() {
    var current = LoadTests.results(5_000, 1.0, 12.5, 10.0, 160.0);
    var t = regression(20.0, 5.0);
    t.setP99Ms(10.0);
    var verdict = Verdict.judge(current, t, Comparison.of("v1", LoadTests.BASELINE, current));
    assertThat(verdict.reason()).isEqualTo(Verdict.THRESHOLDS_EXCEEDED);
    assertThat(verdict.failures()).hasSize(3);
  }

  @Test
  void regressionLimitsWithoutABaselineFail() {
    var verdict = Verdict.judge(LoadTests.BASELINE, regression(20.0, null), null);
    assertThat(verdict.passed()).isFalse();
    assertThat(verdict.message()).contains("no baseline to compare with");
  }
}
