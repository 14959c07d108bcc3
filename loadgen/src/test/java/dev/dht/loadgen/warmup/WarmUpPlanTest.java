package dev.dht.loadgen.warmup;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

class WarmUpPlanTest {
  private final WarmUpPlan plan = WarmUpPlan.upTo(60_000, 3);

  @Test
  void everyWorkloadRunsOnceEvenWhenTheJitIsAlreadyQuiet() {
    assertThat(plan.another(0, 0, 0, 0)).isTrue();
    assertThat(plan.another(2, 4_000, 2_000, 0)).isTrue();
    assertThat(plan.another(3, 6_000, 2_000, 0)).isFalse();
  }

  @Test
  void itGoesOnWhileTheCompilersAreBusyAndStopsOnceTheyAreQuiet() {
    assertThat(plan.another(3, 6_000, 2_000, 1_500)).isTrue();
    assertThat(plan.another(9, 18_000, 2_000, 201)).isTrue();
    assertThat(plan.another(10, 20_000, 2_000, 200)).isFalse();
  }

  @Property
  void itNeverRunsPastItsTime(
      @ForAll @IntRange(min = 0, max = 100) int phases,
      @ForAll @LongRange(min = 60_000, max = 1_000_000) long elapsed,
      @ForAll @LongRange(min = 0, max = 10_000) long compiled) {
    assertThat(plan.another(phases, elapsed, 2_000, compiled)).isFalse();
  }
}
