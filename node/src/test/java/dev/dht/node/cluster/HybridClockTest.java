package dev.dht.node.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
    HybridClock clock = new HybridClock(wall::get, 7, Long.MAX_VALUE);
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
    HybridClock clock = new HybridClock(wall::get, 1, Long.MAX_VALUE);
    clock.next();
    wall.addAndGet(250);
    assertThat(HybridClock.millisOf(clock.next())).isEqualTo(1_700_000_000_250L);
  }

  @Test
  void staysAheadAfterTheWallClockStepsBack() {
    AtomicLong wall = new AtomicLong(1_700_000_000_000L);
    HybridClock clock = new HybridClock(wall::get, 1, Long.MAX_VALUE);
    long before = clock.next();
    wall.set(1_600_000_000_000L); // an NTP step of a hundred million seconds back
    long after = clock.next();
    assertThat(after).isGreaterThan(before);
    assertThat(HybridClock.millisOf(after)).isEqualTo(1_700_000_000_000L);
  }

  @Test
  void observingAPeerTimestampMovesTheClockPastIt() {
    HybridClock slow = new HybridClock(() -> 1_000_000L, 1, Long.MAX_VALUE);
    HybridClock fast = new HybridClock(() -> 9_000_000L, 2, Long.MAX_VALUE);
    long remote = fast.next();
    slow.observe(remote);
    assertThat(slow.next()).isGreaterThan(remote);
  }

  @Test
  void differentNodesNeverIssueTheSameTimestamp() {
    HybridClock a = new HybridClock(() -> 42L, 1, Long.MAX_VALUE);
    HybridClock b = new HybridClock(() -> 42L, 2, Long.MAX_VALUE);
    assertThat(a.next()).isNotEqualTo(b.next());
  }

  @Test
  void manyTimestampsInOneMillisecondStayOrdered() {
    HybridClock clock = new HybridClock(() -> 5L, 3, Long.MAX_VALUE);
    long previous = 0;
    for (int i = 0; i < 10_000; i++) { // more than the 4096 logical values of one millisecond
      long next = clock.next();
      assertThat(next).isGreaterThan(previous);
      previous = next;
    }
  }

  @Test
  void aTimestampFurtherAheadThanTheMaxOffsetIsRefusedAndNotObserved() {
    HybridClock clock = new HybridClock(() -> 1_000_000L, 1, 500);
    long within = new HybridClock(() -> 1_000_500L, 2, 500).next();
    long beyond = new HybridClock(() -> 1_000_501L, 2, 500).next();
    assertThat(clock.plausible(within)).isTrue();
    assertThat(clock.plausible(beyond)).isFalse();
    assertThat(clock.aheadOfWallMs(beyond)).isEqualTo(501);

    assertThat(clock.observe(beyond)).isFalse();
    assertThat(HybridClock.millisOf(clock.next())).isEqualTo(1_000_000L);
    assertThat(clock.observe(within)).isTrue();
    assertThat(clock.next()).isGreaterThan(within);
  }

  @Test
  void theLargestTimestampCannotMakeTheClockOverflow() {
    HybridClock guarded = new HybridClock(() -> 1_000_000L, 1, 500);
    assertThat(guarded.observe(Long.MAX_VALUE)).isFalse();
    assertThat(guarded.observe(-1)).isFalse();
    assertThat(guarded.next()).isPositive();

    // Without an offset bound, the largest value is observed; the clock then refuses to issue
    // timestamps instead of wrapping around to negative (= older) ones.
    HybridClock unbounded = new HybridClock(() -> 1_000_000L, 1, Long.MAX_VALUE);
    assertThat(unbounded.observe(Long.MAX_VALUE)).isTrue();
    assertThatThrownBy(unbounded::next).isInstanceOf(HybridClock.ExhaustedException.class);
    HybridClock atTheEnd = new HybridClock(() -> HybridClock.MAX_LOGICAL >>> 12, 1, 500);
    long last = 0;
    for (int i = 0; i < 4096; i++) {
      last = atTheEnd.next();
      assertThat(last).isPositive();
    }
    assertThatThrownBy(atTheEnd::next).isInstanceOf(HybridClock.ExhaustedException.class);
  }

  /** A reservation held in memory: what a persisted one does, without the disk. */
  private static final class FakeReservation implements HybridClock.Reservation {
    final long floor;
    long reserved;
    long wanted;

    FakeReservation(long floor, long reserved) {
      this.floor = floor;
      this.reserved = reserved;
    }

    @Override
    public long floorMillis() {
      return floor;
    }

    @Override
    public long reservedMillis() {
      return reserved;
    }

    @Override
    public void extend(long millis) {
      wanted = Math.max(wanted, millis);
    }
  }

  @Test
  void aRestartedClockStartsAboveWhatItReservedBeforeEvenIfTheWallClockWentBack() {
    long before = 1_000_000L;
    FakeReservation reservation = new FakeReservation(before + 2_000, before + 4_000);
    HybridClock restarted = new HybridClock(() -> before - 10_000, 1, 20_000, reservation);
    assertThat(HybridClock.millisOf(restarted.next())).isGreaterThanOrEqualTo(before + 2_000);
  }

  @Test
  void stampsNothingMoreThanTheMaximumOffsetAheadOfItsWallClock() {
    AtomicLong wall = new AtomicLong(1_000_000L);
    FakeReservation mark = new FakeReservation(1_120_000L, Long.MAX_VALUE); // ran 2 min ahead
    HybridClock restarted = new HybridClock(wall::get, 1, 500, mark);
    assertThatThrownBy(restarted::next)
        .isInstanceOf(HybridClock.FencedException.class)
        .hasMessageContaining("ahead");
    wall.set(1_119_600L);
    assertThat(HybridClock.millisOf(restarted.next())).isEqualTo(1_120_000L);

    HybridClock clock = new HybridClock(wall::get, 2, 500);
    long farAhead = HybridClock.firstOf(wall.get() + 60_000);
    assertThatThrownBy(() -> clock.nextAfter(farAhead))
        .isInstanceOf(HybridClock.FencedException.class);
    assertThat(clock.nextAfter(HybridClock.firstOf(wall.get() + 400)))
        .isGreaterThan(HybridClock.firstOf(wall.get() + 400));
  }

  @Test
  void aFencedClockStampsNothingAndAdmitsNoVersion() {
    AtomicLong wall = new AtomicLong(1_000_000L);
    String[] fenced = {"clock fenced: test"};
    HybridClock clock =
        new HybridClock(wall::get, 1, 500, HybridClock.Reservation.NONE, () -> fenced[0]);
    long version = HybridClock.firstOf(wall.get());
    assertThatThrownBy(clock::next)
        .isInstanceOf(HybridClock.FencedException.class)
        .hasMessage("clock fenced: test");
    assertThat(clock.admits(version)).isFalse();
    fenced[0] = null;
    assertThat(clock.next()).isPositive();
    assertThat(clock.admits(version)).isTrue();
    assertThat(clock.admits(HybridClock.firstOf(wall.get() + 501))).isFalse();
  }

  @Test
  void neverIssuesPastItsReservationAndAsksForMoreAheadOfTime() {
    AtomicLong wall = new AtomicLong(1_000_000L);
    FakeReservation reservation = new FakeReservation(0, 1_002_000L);
    HybridClock clock = new HybridClock(wall::get, 1, 500, reservation);
    clock.next();
    assertThat(reservation.wanted).as("nothing asked while far from the end").isZero();
    wall.set(1_001_800L);
    clock.next();
    assertThat(reservation.wanted).isEqualTo(1_001_800L + 2 * HybridClock.RESERVE_AHEAD_MS);
    wall.set(1_002_001L);
    assertThatThrownBy(clock::next).isInstanceOf(HybridClock.NotReservedException.class);
    reservation.reserved = reservation.wanted;
    assertThat(HybridClock.millisOf(clock.next())).isEqualTo(1_002_001L);
  }

  @Test
  void aNodeIdMustFitItsByte() {
    assertThatThrownBy(() -> new HybridClock(() -> 1L, 256, 500))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
