package dev.dht.operator.loadtest.result;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.operator.loadtest.LoadTests;
import org.junit.jupiter.api.Test;

class Wrk2LogTest {

  @Test
  void theReportIsCutFromTheLogWithoutProgressLines() {
    var report = Wrk2Log.report(LoadTests.podLog()).orElseThrow();
    assertThat(report).startsWith("Running 4s test @ http://127.0.0.1:18580\n");
    assertThat(report).endsWith("Transfer/sec:     250.00B\n");
    assertThat(report).contains("Detailed Percentile spectrum").contains("#[Mean");
    assertThat(report).doesNotContain("req/s  errors");
  }

  @Test
  void progressLinesInterleavedByTheKubeletAreDropped() {
    String log =
        "[   1s]  10 req/s  errors 0\nRunning 2s test @ http://x:1\n[   2s]  9 req/s\n"
            + "  body\nRequests/sec: 1\nTransfer/sec: 0B\n[   3s] late\n";
    assertThat(Wrk2Log.report(log))
        .hasValue("Running 2s test @ http://x:1\n  body\nRequests/sec: 1\nTransfer/sec: 0B\n");
  }

  @Test
  void anIncompleteReportIsNoReport() {
    assertThat(Wrk2Log.report(null)).isEmpty();
    assertThat(Wrk2Log.report("[  1s] progress only\n")).isEmpty();
    assertThat(Wrk2Log.report("Running 2s test @ http://x:1\n  cut off here")).isEmpty();
  }

  @Test
  void theSpectrumIsParsedIntoPoints() {
    var points = Wrk2Log.spectrum(Wrk2Log.report(LoadTests.podLog()).orElseThrow());
    assertThat(points).hasSize(43);
    assertThat(points.getFirst()).isEqualTo(new Wrk2Log.Point(0.0, 2727.935));
    assertThat(points.getLast()).isEqualTo(new Wrk2Log.Point(1.0, 4259.839));
    assertThat(points)
        .isSortedAccordingTo((a, b) -> Double.compare(a.percentile(), b.percentile()));
  }

  @Test
  void theTailIsBounded() {
    String log = "a\nb\nc\nloadgen: --rate must be > 0 (got 0.0)\n";
    assertThat(Wrk2Log.tail(log, 2, 100)).isEqualTo("c | loadgen: --rate must be > 0 (got 0.0)");
    assertThat(Wrk2Log.tail(log, 10, 10)).isEqualTo("... (got 0.0)");
    assertThat(Wrk2Log.tail(null, 3, 10)).isEmpty();
  }
}
