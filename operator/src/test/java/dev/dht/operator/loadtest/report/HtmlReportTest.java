package dev.dht.operator.loadtest.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.operator.loadtest.Comparison;
import dev.dht.operator.loadtest.LoadTests;
import dev.dht.operator.loadtest.result.RunSummary;
import dev.dht.operator.loadtest.result.Verdict;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class HtmlReportTest {
  @Test
  void theReportPageShowsTheComparisonAndLinksTheFlameGraphs() {
    var test = LoadTests.test("put-10k-v2", "demo");
    var summary = RunSummary.parse(LoadTests.terminationMessage());
    var baseline =
        new HtmlReport.Baseline(
            Comparison.of("put-10k-v1", LoadTests.BASELINE, summary.results()),
            HtmlReport.fromSummary(LoadTests.BASELINE.getLatencyMs()));
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
        .contains("<a href=\"flame-demo-0-cpu.html\">")
        .as("a flame graph draws with its scripts, in an origin of its own")
        .contains("<iframe sandbox=\"allow-scripts\" src=\"flame-demo-0-cpu.html\"")
        .doesNotContain("allow-same-origin")
        .contains("<li>demo-0: +3.0% CPU per request while profiled</li>")
        .as("the baseline's curve is drawn beside this run's")
        .contains("id=\"baseline-curve\"", "- - put-10k-v1");
  }
}
