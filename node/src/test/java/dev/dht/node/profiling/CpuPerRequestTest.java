package dev.dht.node.profiling;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CpuPerRequestTest {
  private static CpuPerRequest.Sample at(long cpuMillis, long requests) {
    return new CpuPerRequest.Sample(cpuMillis * 1_000_000, requests);
  }

  @Test
  void comparesTheCpuPerRequestDuringTheProfileWithTheWindowBefore() {
    var overhead = CpuPerRequest.of(at(0, 0), at(1000, 10_000), at(2200, 20_000));
    assertThat(overhead.measured()).isTrue();
    assertThat(overhead.beforeMs()).isEqualTo(0.1);
    assertThat(overhead.duringMs()).isEqualTo(0.12);
    assertThat(overhead.changePercent()).isCloseTo(20.0, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(overhead.toJson().getDouble("changePercent")).isEqualTo(20.0);
    assertThat(overhead.toJson().getDouble("cpuMsPerRequestDuring")).isEqualTo(0.12);
  }

  @Test
  void tooFewRequestsOnEitherSideAreNotAMeasurement() {
    var idleBefore = CpuPerRequest.of(at(0, 0), at(10, 5), at(2200, 20_000));
    assertThat(idleBefore.measured()).isFalse();
    assertThat(idleBefore.toJson().getString("unmeasured")).contains("fewer than 200 requests");
    assertThat(idleBefore.toJson().containsKey("changePercent")).isFalse();
    assertThat(CpuPerRequest.of(at(0, 0), at(0, 0), at(0, 0)).measured()).isFalse();
  }
}
