package dev.dht.operator.loadtest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.operator.loadtest.DhtLoadTestSpec.Regression;
import dev.dht.operator.loadtest.DhtLoadTestSpec.Thresholds;
import dev.dht.operator.loadtest.DhtLoadTestStatus.Latency;
import dev.dht.operator.loadtest.DhtLoadTestStatus.Results;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ComparisonTest {
  private static Results results(double rate, double p50, double p99, double p999, double max) {
    var r = new Results();
    r.setRequests(100_000L);
    r.setErrors(0L);
    r.setNon2xx(0L);
    r.setNotFound(0L);
    r.setAchievedRate(rate);
    r.setLatencyMs(new Latency(p50, p50 * 2, p99, p999, max));
    return r;
  }

  private static final Results BASELINE = results(10_000, 1.0, 10.0, 27.8, 80.0);

  @Test
  void everyRowHasBothValuesTheChangeAndAWordForIt() {
    var c = Comparison.of("put-10k-v1", BASELINE, results(9_990, 1.0, 12.0, 10.0, 160.0));
    assertThat(c.getBaseline()).isEqualTo("put-10k-v1");
    assertThat(c.getRows())
        .extracting(Comparison.Row::getMetric)
        .containsExactly("achievedRate", "p50", "p99", "p99.9", "max");
    assertThat(c.row("achievedRate").getSummary()).isEqualTo("same");
    assertThat(c.row("achievedRate").getChangePercent()).isEqualTo(-0.1);
    assertThat(c.row("p50").getSummary()).isEqualTo("same");
    assertThat(c.row("p99").getChangePercent()).isEqualTo(20.0);
    assertThat(c.row("p99").getSummary()).isEqualTo("20% worse");
    assertThat(c.row("p99.9").getSummary()).isEqualTo("2.78x better");
    assertThat(c.row("max").getSummary()).isEqualTo("2x worse");
  }

  @Test
  void aHigherRateIsBetterALowerOneWorse() {
    var faster = Comparison.of("b", BASELINE, results(20_000, 1, 10, 27.8, 80));
    assertThat(faster.row("achievedRate").getSummary()).isEqualTo("2x better");
    var slower = Comparison.of("b", BASELINE, results(9_000, 1, 10, 27.8, 80));
    assertThat(slower.row("achievedRate").getSummary()).isEqualTo("10% worse");
  }

  @Test
  void aMissingValueIsNotCompared() {
    var none = new Results();
    var c = Comparison.of("b", BASELINE, none);
    assertThat(c.row("p99").getChangePercent()).isNull();
    assertThat(c.row("p99").getBaseline()).isEqualTo(10.0);
  }

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
    var current = results(9_990, 1.0, 12.5, 10.0, 160.0);
    var c = Comparison.of("v1", BASELINE, current);
    var verdict = Verdict.judge(current, regression(20.0, 5.0), c);
    assertThat(verdict.passed()).isFalse();
    assertThat(verdict.reason()).isEqualTo(Verdict.REGRESSED);
    assertThat(verdict.failures())
        .containsExactly("p99 12.5 ms vs baseline 10 ms (+25%) > +20% allowed (regression)");
    assertThat(verdict.message()).contains("achieved rate 9990 req/s vs baseline 10000 req/s");

    var within = results(9_990, 1.0, 11.9, 10.0, 160.0);
    var ok = Verdict.judge(within, regression(20.0, 5.0), Comparison.of("v1", BASELINE, within));
    assertThat(ok.passed()).isTrue();
    assertThat(ok.message()).contains("(+19%) <= +20% allowed");
  }

  @Test
  void anAbsoluteLimitDecidesBeforeARegression() {
    var current = results(5_000, 1.0, 12.5, 10.0, 160.0);
    var t = regression(20.0, 5.0);
    t.setP99Ms(10.0);
    var verdict = Verdict.judge(current, t, Comparison.of("v1", BASELINE, current));
    assertThat(verdict.reason()).isEqualTo(Verdict.THRESHOLDS_EXCEEDED);
    assertThat(verdict.failures()).hasSize(3);
  }

  @Test
  void regressionLimitsWithoutABaselineFail() {
    var verdict = Verdict.judge(BASELINE, regression(20.0, null), null);
    assertThat(verdict.passed()).isFalse();
    assertThat(verdict.message()).contains("no baseline to compare with");
  }

  @Test
  void theReportPageShowsTheComparisonAndLinksTheFlameGraphs() {
    var test = LoadTests.test("put-10k-v2", "demo");
    var summary = RunSummary.parse(LoadTests.terminationMessage());
    var c =
        Comparison.of("put-10k-v1", BASELINE, summary.results())
            .withBaselineSpectrum(HtmlReport.fromSummary(BASELINE.getLatencyMs()));
    String html =
        HtmlReport.render(
            test,
            "http://demo:8080",
            summary,
            Verdict.judge(summary.results(), null),
            Optional.empty(),
            c,
            new HtmlReport.Profiles(
                java.util.List.of("flame-demo-0-cpu.html"),
                java.util.List.of("demo-0: +3.0% CPU per request while profiled")));
    assertThat(html)
        .contains("<h2>Against put-10k-v1</h2>", "id=\"comparison\"", "p99.9")
        .contains("<a href=\"flame-demo-0-cpu.html\">", "<iframe src=\"flame-demo-0-cpu.html\"")
        .contains("<li>demo-0: +3.0% CPU per request while profiled</li>")
        .as("the baseline's curve is drawn beside this run's")
        .contains("id=\"baseline-curve\"", "- - put-10k-v1");
  }
}
