package dev.dht.loadgen.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.dht.loadgen.report.JsonSummary;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

class WarmupCheckTest {
  @Test
  void latencyStillFallingIsNotWarmedUp() {
    assertThat(WarmupCheck.warmedUp(992, 9)).isFalse(); // a cold JVM's first third
    assertThat(WarmupCheck.warmedUp(4.0, 2.0)).isFalse(); // twice, and 2 ms apart
  }

  @Test
  void flatOrRisingLatencyIsWarmedUp() {
    assertThat(WarmupCheck.warmedUp(3.0, 2.9)).isTrue();
    assertThat(WarmupCheck.warmedUp(2.0, 9.0)).isTrue(); // rising: overload, not warm-up
  }

  @Test
  void subMillisecondNoiseIsNotAWarmUp() {
    assertThat(WarmupCheck.warmedUp(0.9, 0.3)).isTrue(); // 3x, but only 0.6 ms apart
  }

  @Test
  void requestsAreCountedInTheThirdOfTheMeasuredWindowTheyWereDueIn() {
    var window = new RunWindow(0, 1_000, 4_000, 5_000, 0, true);
    assertThat(window.thirdOf(999)).isEqualTo(RunWindow.WARMUP);
    assertThat(window.thirdOf(1_000)).isZero();
    assertThat(window.thirdOf(1_999)).isZero();
    assertThat(window.thirdOf(2_000)).isEqualTo(1);
    assertThat(window.thirdOf(3_000)).isEqualTo(2);
    assertThat(window.thirdOf(3_999)).isEqualTo(2);
    assertThat(window.thirdOf(4_500)).isEqualTo(2); // late slots of a fill
  }

  @Test
  void theSummaryCarriesTheThirdsAndTheMark() {
    var recorder = new LatencyRecorder();
    for (int i = 0; i < 100; i++) {
      recorder.response(0, true, 201, 50_000_000, 50_000_000, 0, 0); // 50 ms
      recorder.response(1, true, 201, 5_000_000, 5_000_000, 0, 0);
      recorder.response(2, true, 201, 2_000_000, 2_000_000, 0, 0);
    }
    recorder.close();
    var window = new RunWindow(0, 0, 3_000, 3_000, 0, true);
    var result =
        RunResult.collect(
            Results.config(Workload.PUT, 100),
            window,
            java.util.List.of(recorder),
            java.util.List.of(),
            3_000,
            0,
            false);
    // within HdrHistogram's 3 significant digits
    assertThat(result.p99ByThirdMs().get(0)).isCloseTo(50.0, within(0.1));
    assertThat(result.p99ByThirdMs().get(1)).isCloseTo(5.0, within(0.01));
    assertThat(result.p99ByThirdMs().get(2)).isCloseTo(2.0, within(0.01));
    assertThat(result.warmedUp()).isFalse();
    var json = new JsonObject(JsonSummary.toTerminationLog(result));
    assertThat(json.getBoolean("warmedUp")).isFalse();
    assertThat(json.getJsonArray("p99ByThirdMs").getDouble(0)).isCloseTo(50.0, within(0.1));
  }
}
