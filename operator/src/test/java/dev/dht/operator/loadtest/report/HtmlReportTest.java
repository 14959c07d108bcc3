package dev.dht.operator.loadtest.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.operator.loadtest.Comparison;
import dev.dht.operator.loadtest.DhtLoadTestStatus.Latency;
import dev.dht.operator.loadtest.DhtLoadTestStatus.Results;
import dev.dht.operator.loadtest.LoadTests;
import dev.dht.operator.loadtest.result.RunSummary;
import dev.dht.operator.loadtest.result.Verdict;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class HtmlReportTest {
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
  void theReportPageShowsTheComparisonAndLinksTheFlameGraphs() {
    var test = LoadTests.test("put-10k-v2", "demo");
    var summary = RunSummary.parse(LoadTests.terminationMessage());
    var baseline =
        new HtmlReport.Baseline(
            Comparison.of("put-10k-v1", BASELINE, summary.results()),
            HtmlReport.fromSummary(BASELINE.getLatencyMs()));
    String html =
        HtmlReport.render(
            test,
            "http://demo:8080",
            summary,
            Verdict.judge(summary.results(), null),
            Optional.empty(),
            baseline,
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
