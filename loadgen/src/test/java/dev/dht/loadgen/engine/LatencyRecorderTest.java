package dev.dht.loadgen.engine;

import static dev.dht.loadgen.engine.LatencyRecorder.Count;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LatencyRecorderTest {
  private final LatencyRecorder r = new LatencyRecorder();

  private void respond(boolean put, int status) {
    r.sent();
    r.response(1, put, status, 1_000_000, 1_000_000, 10, 0);
  }

  @Test
  void successIs201ForPutAnd200Or404ForGet() {
    respond(true, 201);
    respond(true, 200);
    respond(false, 200);
    respond(false, 404);
    respond(false, 201);
    respond(false, 504);

    assertThat(r.count(Count.RESPONSES)).isEqualTo(6);
    assertThat(r.count(Count.OK)).isEqualTo(2);
    assertThat(r.count(Count.NOT_FOUND)).isEqualTo(1);
    assertThat(r.count(Count.NON_2XX)).isEqualTo(3);
    assertThat(r.statusCount(504)).isEqualTo(1);
    assertThat(r.count(Count.IN_FLIGHT)).isZero();
    assertThat(r.correctedTotal().getTotalCount()).isEqualTo(6);
  }

  @Test
  void warmupOnlyFeedsProgressAndClosedRecordersIgnoreLateAnswers() {
    r.sent();
    r.response(RunWindow.WARMUP, true, 201, 5_000, 5_000, 0, 0);
    r.sent();
    r.failure(true, Transport.Failure.TIMEOUT, 0);
    r.sent();
    r.close();
    r.response(1, true, 201, 5_000, 5_000, 0, 0);

    assertThat(r.count(Count.ALL_RESPONSES)).isEqualTo(1);
    assertThat(r.count(Count.RESPONSES)).isZero();
    assertThat(r.count(Count.TIMEOUTS)).isEqualTo(1);
    assertThat(r.count(Count.IN_FLIGHT)).as("the one cut by the end").isEqualTo(1);
    assertThat(r.warmupInterval(null).getTotalCount()).isEqualTo(1);
    assertThat(r.measuredInterval(null).getTotalCount()).isZero();
    assertThat(r.correctedTotal().getTotalCount()).isZero();
  }
}
