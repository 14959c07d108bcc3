package dev.dht.operator.loadtest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

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
