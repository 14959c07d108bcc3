package dev.dht.loadgen.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class TickSchedulerTest {
  private final AtomicLong now = new AtomicLong();
  private final TickScheduler ticks = new TickScheduler(now::get);
  private final List<String> ran = new ArrayList<>();

  @Test
  void aTickRunsTheDueTasksInTimeOrderAndKeepsTheRest() {
    ticks.schedule(3_000, () -> ran.add("c"));
    ticks.schedule(1_000, () -> ran.add("a"));
    ticks.schedule(2_000, () -> ran.add("b"));
    ticks.schedule(9_000, () -> ran.add("late"));

    now.set(500);
    ticks.tick();
    assertThat(ran).isEmpty();

    now.set(3_000);
    ticks.tick();
    assertThat(ran).containsExactly("a", "b", "c");
    assertThat(ticks.pending()).isEqualTo(1);
  }

  @Test
  void tasksScheduledByATaskWaitForTheirTime() {
    ticks.schedule(10, () -> ticks.schedule(1_000, () -> ran.add("next")));
    now.set(10);
    ticks.tick();
    assertThat(ran).isEmpty();
    now.set(1_010);
    ticks.tick();
    assertThat(ran).containsExactly("next");
  }

  @Test
  void requestLoopsPacedByTicksKeepTheRate() {
    // 4 connections at 2000 req/s for 1 s, ticking every millisecond, sending up to 1 ms early.
    FakeEventLoop loop = new FakeEventLoop();
    TickScheduler tick = new TickScheduler(loop);
    Schedule schedule = new Schedule(2000, 0);
    RunWindow window = new RunWindow(0, 0, 1_000_000_000L, 2_000_000_000L, Long.MAX_VALUE, true);
    LatencyRecorder recorder = new LatencyRecorder();
    List<Long> lateness = new ArrayList<>();
    RequestPlanner planner =
        new RequestPlanner(
            Workload.GET,
            KeyChooser.uniform(10),
            1,
            new java.util.SplittableRandom(1),
            new KeyUris("k", 10, null, null));
    for (int c = 0; c < 4; c++) {
      int first = c;
      long[] slot = {first};
      Transport t =
          (request, callback) -> {
            lateness.add(loop.getAsLong() - schedule.intendedNanos(slot[0]));
            slot[0] += 4;
            loop.schedule(100_000, () -> callback.onResponse(200, 0));
          };
      new RequestLoop(
              schedule, window, first, 4, planner, t, tick, loop, recorder, 1_000_000, () -> {})
          .start();
    }
    for (long ms = 1; ms <= 1_100; ms++) {
      loop.at(ms * 1_000_000, tick::tick);
    }
    loop.runAll();

    assertThat(lateness).hasSize(2000);
    // Sent within the millisecond before the intended time, never late.
    assertThat(lateness).allSatisfy(l -> assertThat(l).isBetween(-1_000_000L, 0L));
    // Early sends are measured from the actual send: the latency is the 100 us service time.
    assertThat(recorder.correctedTotal().getMaxValue()).isBetween(99L, 101L);
  }
}
