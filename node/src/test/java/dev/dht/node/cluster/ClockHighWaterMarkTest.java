package dev.dht.node.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClockHighWaterMarkTest {
  @TempDir Path dir;

  @Test
  void theMarkSurvivesReopeningAndOnlyGrows() {
    long wall = 1_000_000L;
    try (ClockHighWaterMark mark = ClockHighWaterMark.open(dir, () -> wall)) {
      assertThat(mark.floorMillis()).isZero();
      assertThat(mark.reservedMillis()).isEqualTo(wall + 2 * HybridClock.RESERVE_AHEAD_MS);
      mark.extend(wall + 60_000);
      await().atMost(Duration.ofSeconds(5)).until(() -> mark.reservedMillis() == wall + 60_000);
      mark.extend(wall + 10); // smaller: changes nothing
    }
    try (ClockHighWaterMark mark = ClockHighWaterMark.open(dir, () -> wall - 10_000)) {
      assertThat(mark.floorMillis()).isEqualTo(wall + 60_000);
      assertThat(mark.reservedMillis()).isGreaterThan(wall + 60_000);
      HybridClock clock = new HybridClock(() -> wall - 10_000, 3, 100_000, mark);
      assertThat(HybridClock.millisOf(clock.next())).isGreaterThanOrEqualTo(wall + 60_000);
    }
  }

  @Test
  void aFencedClockThatJumpsAheadLeavesNoMarkAheadOfItsPeers() throws InterruptedException {
    AtomicLong wall = new AtomicLong(1_000_000L);
    String[] fenced = {null};
    try (ClockHighWaterMark mark = ClockHighWaterMark.open(dir, wall::get, () -> fenced[0])) {
      long before = mark.reservedMillis();
      fenced[0] = "clock fenced: 120000 ms ahead";
      wall.addAndGet(120_000);
      Thread.sleep(2 * HybridClock.RESERVE_AHEAD_MS);
      assertThat(mark.reservedMillis()).as("not kept ahead of the jumped clock").isEqualTo(before);
      fenced[0] = null;
      await()
          .atMost(Duration.ofSeconds(5))
          .until(() -> mark.reservedMillis() > wall.get() + HybridClock.RESERVE_AHEAD_MS / 2);
    }
  }
}
