package dev.dht.operator.loadtest.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.operator.loadtest.Comparison;
import dev.dht.operator.loadtest.DhtLoadTestStatus;
import dev.dht.operator.loadtest.LoadTests;
import dev.dht.operator.loadtest.result.RunSummary;
import dev.dht.operator.loadtest.result.Verdict;
import dev.dht.operator.loadtest.result.Wrk2Log;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The whole page, byte for byte, for one input with every section and one with none (the expected
 * pages are the output of the renderer as it was when these tests were written).
 */
class HtmlReportPinnedTest {
  @Test
  void aPageWithEverySection() {
    var cold =
        RunSummary.parse(
            "{\"requests\":30000,\"achievedRate\":1000.0,\"targetRate\":1000,"
                + "\"latencyMs\":{\"p50\":1.5,\"p90\":3.2,\"p99\":75.4,\"p999\":120,\"max\":212.5},"
                + "\"p99ByThirdMs\":[212.5,4.1,2.0],\"warmedUp\":false,\"note\":\"<&>\"}");
    cold.results().setWindowOverlap(0.9731);
    var summary =
        new RunSummary(
            cold.json(),
            cold.results(),
            cold.targetRate(),
            cold.durationSeconds(),
            List.of(generator(0, 510.2, 70.1), generator(1, 489.8, 80.7)));
    var baselineResults = LoadTests.results(1000, 1.0, 10.0, 27.8, 80.0);
    baselineResults.getLatencyMs().setP999(null);
    var baseline =
        new HtmlReport.Baseline(
            Comparison.of("put-1k <v1>", baselineResults, summary.results()),
            HtmlReport.fromSummary(baselineResults.getLatencyMs()));
    String html =
        HtmlReport.render(
            LoadTests.test("put-1k-v2", "demo"),
            "http://demo:8080/?a=1&b=\"2\"",
            summary,
            Verdict.judge(summary.results(), null),
            Wrk2Log.report(LoadTests.podLog()),
            baseline,
            new HtmlReport.Profiles(
                List.of("flame-demo-0-cpu.html", "flame-demo-1-alloc.html"),
                List.of("demo-0: +3.0% CPU per request while profiled", "demo-1: <n/a>")));
    assertThat(html).isEqualTo(LoadTests.resource("report-every-section.html"));
  }

  @Test
  void aPageWithNoOptionalSection() {
    var summary = RunSummary.parse(LoadTests.terminationMessage());
    String html =
        HtmlReport.render(
            LoadTests.test("put-10k", "demo"),
            "http://demo.ns.svc:8080",
            summary,
            Verdict.judge(summary.results(), null),
            Optional.empty());
    assertThat(html).isEqualTo(LoadTests.resource("report-no-optional-section.html"));
  }

  @Test
  void theWarmUpLineOfAWarmedUpRun() {
    var warm =
        RunSummary.parse(
            "{\"requests\":30000,\"latencyMs\":{\"p99\":2.0},\"p99ByThirdMs\":[2.1,2,2.2],"
                + "\"warmedUp\":true}");
    String html =
        HtmlReport.render(
            LoadTests.test("put-10k", "demo"),
            "http://x:1",
            warm,
            Verdict.judge(warm.results(), null),
            Optional.empty());
    assertThat(html)
        .contains(
            "</table>\n<p id=\"warm-up\" class=\"Passed\">Warmed up (p99 by third of the measured"
                + " window: 2.1 / 2 / 2.2 ms)</p>\n<h2>Latency by percentile</h2>\n");
  }

  private static DhtLoadTestStatus.Generator generator(int index, double rate, double p99) {
    var g = new DhtLoadTestStatus.Generator();
    g.setIndex(index);
    g.setPod("put-1k-v2-loadgen-" + index);
    g.setTargetRate(500.0);
    g.setAchievedRate(rate);
    g.setRequests(15000L);
    g.setErrors((long) index);
    g.setNon2xx(0L);
    g.setP99Ms(p99);
    g.setWarmedUp(index == 0);
    g.setWindowStart("2026-11-22T10:00:1" + index + "Z");
    g.setWindowEnd("2026-11-22T10:01:1" + index + "Z");
    return g;
  }
}
