package dev.dht.node.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class HybridClockTest {
  @Property
  void timestampsStrictlyIncreaseWhateverTheWallClockDoes(
      @ForAll @Size(min = 1, max = 200)
          java.util.List<@IntRange(min = -5_000, max = 5_000) Integer> steps) {
    AtomicLong wall = new AtomicLong(1_700_000_000_000L);
    HybridClock clock = new HybridClock(wall::get, 7);
    long previous = clock.next();
    for (int step : steps) {
      wall.addAndGet(step);
      long next = clock.next();
      assertThat(next).isGreaterThan(previous);
      previous = next;
    }
  }

  @Test
  void followsTheWallClockWhenItMovesForward() {
    AtomicLong wall = new AtomicLong(1_700_000_000_000L);
    HybridClock clock = new HybridClock(wall::get, 1);
    clock.next();
    wall.addAndGet(250);
    assertThat(HybridClock.millisOf(clock.next())).isEqualTo(1_700_000_000_250L);
  }

  @Test
  void staysAheadAfterTheWallClockStepsBack() {
    AtomicLong wall = new AtomicLong(1_700_000_000_000L);
    HybridClock clock = new HybridClock(wall::get, 1);
    long before = clock.next();
    wall.set(1_600_000_000_000L); // an NTP step of a hundred million seconds back
    long after = clock.next();
    assertThat(after).isGreaterThan(before);
    assertThat(HybridClock.millisOf(after)).isEqualTo(1_700_000_000_000L);
  }

  @Test
  void observingAPeerTimestampMovesTheClockPastIt() {
    HybridClock slow = new HybridClock(() -> 1_000_000L, 1);
    HybridClock fast = new HybridClock(() -> 9_000_000L, 2);
    long remote = fast.next();
    slow.observe(remote);
    assertThat(slow.next()).isGreaterThan(remote);
  }

  @Test
  void differentNodesNeverIssueTheSameTimestamp() {
    HybridClock a = new HybridClock(() -> 42L, 1);
    HybridClock b = new HybridClock(() -> 42L, 2);
    assertThat(a.next()).isNotEqualTo(b.next());
  }

  @Test
  void manyTimestampsInOneMillisecondStayOrdered() {
    HybridClock clock = new HybridClock(() -> 5L, 3);
    long previous = 0;
    for (int i = 0; i < 10_000; i++) { // more than the 4096 logical values of one millisecond
      long next = clock.next();
      assertThat(next).isGreaterThan(previous);
      previous = next;
    }
  }
}
