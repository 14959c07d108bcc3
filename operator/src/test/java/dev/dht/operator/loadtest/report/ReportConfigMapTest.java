package dev.dht.operator.loadtest.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.dht.operator.loadtest.DhtLoadTest;
import dev.dht.operator.loadtest.LoadTests;
import dev.dht.operator.loadtest.result.RunSummary;
import dev.dht.operator.loadtest.result.Verdict;
import dev.dht.operator.loadtest.result.Wrk2Log;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ReportConfigMapTest {
  private final DhtLoadTest test = LoadTests.test("put-10k", "demo");
  private final RunSummary summary = RunSummary.parse(LoadTests.terminationMessage());
  private final Verdict verdict = Verdict.judge(summary.results(), null);

  @Test
  void holdsTheSummaryTheSpectrumAndAnHtmlPage() {
    var wrk2 = Wrk2Log.report(LoadTests.podLog());
    var map = ReportConfigMap.build(test, "http://demo.ns.svc:8080", summary, verdict, wrk2);
    assertThat(map.getMetadata().getName()).isEqualTo("put-10k-report");
    assertThat(map.getMetadata().getNamespace()).isEqualTo("ns");
    assertThat(map.getMetadata().getOwnerReferences())
        .singleElement()
        .satisfies(owner -> {
          assertThat(owner.getUid()).isEqualTo("uid-put-10k");
          assertThat(owner.getKind()).isEqualTo("DhtLoadTest");
          assertThat(owner.getController()).isTrue();
        });
    var data = map.getData();
    assertThat(data).containsOnlyKeys("summary.json", "spectrum.txt", "report.html");
    assertThat(data.get("summary.json")).isEqualTo(LoadTests.terminationMessage() + "\n");
    assertThat(data.get("spectrum.txt")).isEqualTo(wrk2.orElseThrow());
    String html = data.get("report.html");
    assertThat(html)
        .startsWith("<!DOCTYPE html>")
        .contains("dht load test put-10k")
        .contains("http://demo.ns.svc:8080")
        .contains("<strong class=\"Passed\">Passed</strong>")
        .contains("<polyline")
        .contains("Detailed Percentile spectrum")
        .doesNotContain("held no wrk2 report")
        .endsWith("</html>\n");
  }

  @Test
  void withoutALogTheChartComesFromTheSummary() {
    var map = ReportConfigMap.build(test, "http://x:1", summary, verdict, Optional.empty());
    assertThat(map.getData()).containsOnlyKeys("summary.json", "report.html");
    assertThat(map.getData().get("report.html"))
        .contains("the pod log held no wrk2 report")
        .contains("<polyline");
  }

  @Test
  void theReportSaysWhetherTheRunWasWarmedUp() {
    assertThat(ReportConfigMap.build(test, "http://x:1", summary, verdict, Optional.empty()))
        .as("an older generator's summary has no thirds: nothing said")
        .satisfies(
            m -> assertThat(m.getData().get("report.html")).doesNotContain("id=\"warm-up\""));
    var cold =
        RunSummary.parse(
            "{\"requests\":30000,\"achievedRate\":1000.0,\"latencyMs\":{\"p99\":75.4},"
                + "\"p99ByThirdMs\":[212.5,4.1,2.0],\"warmedUp\":false}");
    String html =
        ReportConfigMap.build(
                test, "http://x:1", cold, Verdict.judge(cold.results(), null), Optional.empty())
            .getData()
            .get("report.html");
    assertThat(html)
        .contains("<p id=\"warm-up\" class=\"Failed\">Not warmed up: latency was still falling")
        .contains("212.5 / 4.1 / 2 ms");
    var warm =
        RunSummary.parse(
            "{\"requests\":30000,\"latencyMs\":{\"p99\":2.0},\"p99ByThirdMs\":[2.1,2,2.2],"
                + "\"warmedUp\":true}");
    assertThat(
            ReportConfigMap.build(
                    test, "http://x:1", warm, Verdict.judge(warm.results(), null), Optional.empty())
                .getData()
                .get("report.html"))
        .contains("class=\"Passed\">Warmed up");
  }

  @Test
  void textIsEscaped() {
    assertThat(HtmlReport.escape("<a href=\"x\">&</a>"))
        .isEqualTo("&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;");
  }

  @Test
  void chartAxes() {
    assertThat(HtmlReport.percentileLabel(0)).isEqualTo("0%");
    assertThat(HtmlReport.percentileLabel(2)).isEqualTo("99%");
    assertThat(HtmlReport.percentileLabel(4)).isEqualTo("99.99%");
    assertThat(HtmlReport.niceCeiling(4259.8)).isEqualTo(5000);
    assertThat(HtmlReport.niceCeiling(2660.4)).isEqualTo(3000);
    assertThat(HtmlReport.niceCeiling(0.7)).isCloseTo(0.8, within(1e-9));
    assertThat(HtmlReport.niceCeiling(9.5)).isEqualTo(10);
    assertThat(HtmlReport.niceCeiling(0)).isEqualTo(1);
  }
}
