package dev.dht.node.backup;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class TransferPacerTest {
  private final AtomicLong now = new AtomicLong(1_000_000_000_000L);

  @Test
  void aSecondsWorthGoesAtOnceThenTheRateHolds() {
    TransferPacer pacer = new TransferPacer(1000, now::get);
    assertThat(pacer.reserve(1000)).isZero(); // the burst
    assertThat(pacer.reserve(500)).isEqualTo(500_000_000L); // half a second past the burst
    now.addAndGet(500_000_000L);
    assertThat(pacer.reserve(500)).isEqualTo(500_000_000L);
  }

  @Test
  void idleTimeIsNotSavedBeyondTheBurst() {
    TransferPacer pacer = new TransferPacer(1000, now::get);
    now.addAndGet(60_000_000_000L); // a minute idle
    assertThat(pacer.reserve(1000)).isZero();
    assertThat(pacer.reserve(1000)).isEqualTo(1_000_000_000L);
  }

  @Test
  void noRateNoWait() {
    TransferPacer pacer = new TransferPacer(0, now::get);
    for (int i = 0; i < 100; i++) {
      assertThat(pacer.reserve(1 << 20)).isZero();
    }
  }
}
