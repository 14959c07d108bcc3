package dev.dht.loadgen.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.dht.loadgen.engine.Results;
import dev.dht.loadgen.engine.RunResult;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class SummaryFilesTest {
  private final RunResult result = Results.uniformOneToTenMillis();

  @Test
  void jsonHasTheFieldsTheBenchmarkReads() {
    JsonObject j = new JsonObject(JsonSummary.toJson(result));

    assertThat(j.getLong("requests")).isEqualTo(10_000);
    assertThat(j.getDouble("achievedRate")).isEqualTo(500.0);
    assertThat(j.getDouble("targetRate")).isEqualTo(500.0);
    assertThat(j.getLong("errors")).isEqualTo(6);
    assertThat(j.getLong("non2xx")).isEqualTo(10);
    assertThat(j.getDouble("durationSeconds")).isEqualTo(20.0);
    assertThat(j.getString("workload")).isEqualTo("put");
    assertThat(j.getInteger("ack")).isEqualTo(2);
    assertThat(j.getJsonObject("statusCounts").getLong("503")).isEqualTo(10);
    JsonObject l = j.getJsonObject("latencyMs");
    assertThat(l.fieldNames()).contains("p50", "p75", "p90", "p99", "p999", "p9999", "max", "mean");
    assertThat(l.getDouble("p50")).isCloseTo(5.0, within(0.01));
    assertThat(l.getDouble("p99")).isCloseTo(9.9, within(0.01));
    assertThat(l.getDouble("max")).isCloseTo(10.0, within(0.01));
  }

  @Test
  void terminationLogIsOneSmallLineEvenWithManyStatuses() {
    TreeMap<Integer, Long> many = new TreeMap<>();
    for (int s = 100; s < 600; s++) {
      many.put(s, 1_000_000_000L + s);
    }
    RunResult r = result;
    RunResult noisy =
        new RunResult(
            r.config(),
            20,
            1,
            1,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            many,
            r.latency(),
            r.uncorrected(),
            List.of(),
            r.p99ByThirdMs(),
            r.windowStartMs(),
            r.windowEndMs());

    for (RunResult x : List.of(r, noisy)) {
      String log = JsonSummary.toTerminationLog(x);
      assertThat(log.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(4096);
      assertThat(log).doesNotContain("\n");
      assertThat(new JsonObject(log).getJsonObject("latencyMs").getDouble("p99")).isNotNull();
    }
  }

  @Test
  void htmlIsSelfContainedWithALogPercentileChart() {
    String html = HtmlReport.render(result, Wrk2Report.format(result, false));

    assertThat(html).startsWith("<!DOCTYPE html>").contains("<svg", "<polyline", "</html>");
    assertThat(html).doesNotContain("<script", "src=", "href=", "<link");
    assertThat(html).contains(">0%<", ">90%<", ">99%<", ">99.9%<", ">99.99%<");
    assertThat(html).contains("Detailed Percentile spectrum");
  }

  @Test
  void chartPointsUseDecadesOfOneOverOneMinusP() {
    List<HtmlReport.Point> points = HtmlReport.curve(result.latency());
    assertThat(points.getFirst().decades()).isEqualTo(0.0);
    for (HtmlReport.Point p : points) {
      // p-th percentile of 1..10000 us: x = log10(1/(1-p)) so p = 1 - 10^-x, value ≈ 10 ms * p.
      double pct = 1 - Math.pow(10, -p.decades());
      assertThat(p.millis()).isCloseTo(10.0 * pct, within(0.02 + p.millis() / 500));
    }
    assertThat(HtmlReport.percentileLabel(4)).isEqualTo("99.99%");
    assertThat(HtmlReport.niceCeiling(7.3)).isEqualTo(8.0);
    assertThat(HtmlReport.niceCeiling(2244)).isEqualTo(2500.0);
    assertThat(HtmlReport.niceCeiling(0.13)).isCloseTo(0.15, within(1e-12));
  }
}
