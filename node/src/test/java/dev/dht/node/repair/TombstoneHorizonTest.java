package dev.dht.node.repair;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.node.cluster.HybridClock;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class TombstoneHorizonTest {
  private static final long NOW = 1_800_000_000_000L;
  private static final long GRACE = 86_400_000;
  private static final long MARGIN = 1_500;

  @Test
  void followsTheOldestCompleteRunLessTheMargin() {
    long next =
        TombstoneHorizon.next(
            0, NOW, GRACE, MARGIN, List.of(NOW - GRACE - 60_000, NOW - GRACE - 10_000));
    assertThat(next).isEqualTo(HybridClock.firstOf(NOW - GRACE - 60_000 - MARGIN));
  }

  @Test
  void neverPassesTheGracePeriod() {
    long next = TombstoneHorizon.next(0, NOW, GRACE, MARGIN, List.of(NOW - 1000, NOW - 5000));
    assertThat(next).isEqualTo(HybridClock.firstOf(NOW - GRACE));
  }

  @Test
  void staysWhileAPeerHasNeverCompletedARun() {
    long previous = HybridClock.firstOf(NOW - 2 * GRACE);
    assertThat(
            TombstoneHorizon.next(
                previous, NOW, GRACE, MARGIN, List.of(NOW - 1000, TombstoneHorizon.NEVER)))
        .isEqualTo(previous);
  }

  @Test
  void aWallClockThatJumpsAheadMovesNothingBeyondThePeersRuns() {
    long jumped = NOW + 30L * GRACE;
    long peerRun = NOW - GRACE / 2;
    assertThat(TombstoneHorizon.next(0, jumped, GRACE, MARGIN, List.of(jumped - 1000, peerRun)))
        .isEqualTo(HybridClock.firstOf(peerRun - MARGIN));
  }

  @Property
  void neverMovesBackNorPastAnyRunOrTheGrace(
      @ForAll @LongRange(min = 0, max = NOW) long previousMillis,
      @ForAll @Size(min = 1, max = 6) List<@LongRange(min = 0, max = NOW) Long> runs) {
    long previous = HybridClock.firstOf(previousMillis);
    long next = TombstoneHorizon.next(previous, NOW, GRACE, MARGIN, runs);
    assertThat(next).isGreaterThanOrEqualTo(previous);
    if (next != previous) {
      long millis = HybridClock.millisOf(next);
      assertThat(millis).isLessThanOrEqualTo(NOW - GRACE);
      for (long run : runs) {
        assertThat(millis).isLessThanOrEqualTo(run - MARGIN);
      }
    }
  }
}
