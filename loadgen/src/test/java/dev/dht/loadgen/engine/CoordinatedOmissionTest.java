package dev.dht.loadgen.engine;

import static dev.dht.loadgen.engine.Simulation.MS;
import static dev.dht.loadgen.engine.Simulation.SECOND;
import static org.assertj.core.api.Assertions.assertThat;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * A 1 s server stall at 1000 req/s on one connection: every request due during the stall waits, and
 * the generator must report all of them (latency from the intended send time), not only the one
 * request that was in flight (what a naive closed-loop measurement reports).
 */
class CoordinatedOmissionTest {
  private static final long SERVICE = 100_000; // 100 us

  private final Simulation sim =
      new Simulation()
          .run(
              1000,
              1,
              0,
              5 * SECOND,
              Simulation.stallingServer(SERVICE, 2 * SECOND, 3 * SECOND),
              Long.MAX_VALUE);
  private final Histogram corrected = sim.recorder.correctedTotal();
  private final Histogram naive = sim.recorder.uncorrectedTotal();

  @Test
  void theRateIsKeptByCatchingUpAfterTheStall() {
    assertThat(corrected.getTotalCount()).isBetween(4999L, 5001L);
  }

  @Test
  void everyRequestDueDuringTheStallShowsItsWait() {
    long slow = corrected.getTotalCount() - corrected.getCountBetweenValues(0, 100_000);
    assertThat(slow).as("requests over 100 ms").isBetween(900L, 1200L);
    assertThat(corrected.getValueAtPercentile(99)).as("p99 us").isGreaterThan(900_000);
    assertThat(corrected.getMaxValue()).isBetween(990_000L, 1_010_000L);
    // The waits spread evenly from ~1 s down to ~0: the median of the slow ones is ~0.5 s.
    assertThat(corrected.getValueAtPercentile(90)).isBetween(400_000L, 700_000L);
  }

  @Test
  void theNaiveMeasurementHidesTheStall() {
    assertThat(naive.getTotalCount()).isEqualTo(corrected.getTotalCount());
    assertThat(naive.getTotalCount() - naive.getCountBetweenValues(0, 100_000)).isEqualTo(1);
    assertThat(naive.getValueAtPercentile(99)).isLessThan(1_000);
    assertThat(naive.getMaxValue()).isGreaterThan(990_000);
  }

  @Test
  void aBacklogLeftByTheWarmupIsDroppedNotMeasured() {
    // The server stalls for most of a 2 s warm-up; the measured 3 s that follow are healthy.
    long start = 10 * MS;
    Simulation dropped =
        new Simulation()
            .run(
                1000,
                1,
                2 * SECOND,
                3 * SECOND,
                Simulation.stallingServer(SERVICE, start + SECOND / 2, start + 2 * SECOND),
                Long.MAX_VALUE);
    Histogram h = dropped.recorder.correctedTotal();
    assertThat(h.getTotalCount()).isBetween(2999L, 3001L);
    assertThat(h.getMaxValue()).as("us").isLessThan(1_000);
    // Nor is the backlog sent during the warm-up: after the stall the rate stays at 1 per ms.
    long afterStall = start + 2 * SECOND + SERVICE;
    long burst =
        dropped.sendTimes.stream()
            .filter(t -> t >= afterStall && t < afterStall + 100 * MS)
            .count();
    assertThat(burst).as("sends in the 100 ms after the stall").isBetween(99L, 101L);

    // Kept (as a fill does), the backlog delays the first measured requests.
    Simulation kept =
        new Simulation()
            .keepingWarmupBacklog()
            .run(
                1000,
                1,
                2 * SECOND,
                3 * SECOND,
                Simulation.stallingServer(SERVICE, start + SECOND / 2, start + 2 * SECOND),
                Long.MAX_VALUE);
    assertThat(kept.recorder.correctedTotal().getMaxValue()).as("us").isGreaterThan(100_000);
  }

  @Test
  void aTimerThatFiresEarlyIsMeasuredFromTheActualSend() {
    // Timers armed 1 ms early against a 100 us server: answers come before the intended times,
    // yet the latency is the service time, neither zero nor negative.
    Simulation early = new Simulation();
    early.run(100, 1, 0, SECOND, t -> t + SERVICE, Long.MAX_VALUE, MS);
    Histogram h = early.recorder.correctedTotal();
    assertThat(h.getTotalCount()).isEqualTo(100);
    assertThat(h.getMinValue()).isBetween(99L, 101L);
    assertThat(h.getMaxValue()).isBetween(99L, 101L);
  }
}
