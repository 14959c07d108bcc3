package dev.dht.loadgen.engine;

import static dev.dht.loadgen.engine.Simulation.MS;
import static dev.dht.loadgen.engine.Simulation.SECOND;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

class ScheduleTest {

  @Property
  void slotsDueBeforeMatchesRateTimesTime(
      @ForAll @DoubleRange(min = 0.5, max = 2_000_000) double rate,
      @ForAll @LongRange(min = 0, max = 3_600_000_000_000L) long startNanos,
      @ForAll @LongRange(min = 1, max = 600_000_000_000L) long elapsedNanos) {
    Schedule s = new Schedule(rate, startNanos);
    long n = s.slotsDueBefore(startNanos + elapsedNanos);
    assertThat((double) n)
        .isCloseTo(rate * elapsedNanos / 1e9, org.assertj.core.data.Offset.offset(1.0));
    assertThat(s.intendedNanos(n)).isGreaterThanOrEqualTo(startNanos + elapsedNanos);
    if (n > 0) {
      assertThat(s.intendedNanos(n - 1)).isLessThan(startNanos + elapsedNanos);
    }
  }

  @Property
  void intendedTimesAreEvenlySpaced(
      @ForAll @DoubleRange(min = 1, max = 1_000_000) double rate,
      @ForAll @LongRange(min = 0, max = 10_000_000) long firstSlot) {
    Schedule s = new Schedule(rate, 0);
    double period = 1e9 / rate;
    for (long i = firstSlot; i < firstSlot + 100; i++) {
      long gap = s.intendedNanos(i + 1) - s.intendedNanos(i);
      assertThat((double) gap).isBetween(Math.floor(period) - 1, Math.ceil(period) + 1);
    }
  }

  @Test
  void rejectsNonPositiveRates() {
    assertThatThrownBy(() -> new Schedule(0, 0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Schedule(-5, 0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Schedule(Double.NaN, 0))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void connectionsTogetherSendAtTheTargetRateOnTime() {
    // 8 connections, 5000 req/s for 3 s against a fast server (200 us): 15000 sends.
    Simulation sim = new Simulation().run(5000, 8, 0, 3 * SECOND, t -> t + 200_000, Long.MAX_VALUE);

    assertThat(sim.sendTimes).hasSizeBetween(14_999, 15_001);
    assertThat(sim.done).isEqualTo(8);
    List<Long> sorted = new ArrayList<>(sim.sendTimes);
    sorted.sort(null);
    for (int i = 1; i < sorted.size(); i++) {
      assertThat(sorted.get(i) - sorted.get(i - 1)).isBetween(199_999L, 200_001L);
    }
    // Nothing waited: the recorded latency is the service time.
    assertThat(sim.recorder.correctedTotal().getMaxValue()).isLessThanOrEqualTo(201);
  }

  @Test
  void aFillSendsEverySlotOnceAndStops() {
    Simulation sim = new Simulation().run(1000, 4, 0, 60 * SECOND, t -> t + MS, 1234);

    assertThat(sim.sendTimes).hasSize(1234);
    assertThat(sim.recorder.count(LatencyRecorder.Count.RESPONSES)).isEqualTo(1234);
    assertThat(sim.done).isEqualTo(4);
  }

  @Test
  void warmupAnswersAreNotReported() {
    Simulation sim =
        new Simulation().run(1000, 2, 2 * SECOND, 3 * SECOND, t -> t + 100_000, Long.MAX_VALUE);

    assertThat(sim.recorder.count(LatencyRecorder.Count.ALL_RESPONSES)).isBetween(4999L, 5001L);
    assertThat(sim.recorder.count(LatencyRecorder.Count.RESPONSES)).isBetween(2999L, 3001L);
  }
}
