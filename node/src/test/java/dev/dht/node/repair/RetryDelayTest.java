package dev.dht.node.repair;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RetryDelayTest {
  private static final long HOUR = 3_600_000;

  @Test
  void startsSoonAndDoublesToTheMaximum() {
    assertThat(RetryDelay.afterFailures(1, HOUR)).isEqualTo(5_000);
    assertThat(RetryDelay.afterFailures(2, HOUR)).isEqualTo(10_000);
    assertThat(RetryDelay.afterFailures(3, HOUR)).isEqualTo(20_000);
    assertThat(RetryDelay.afterFailures(4, HOUR)).isEqualTo(30_000);
    assertThat(RetryDelay.afterFailures(1_000, HOUR)).isEqualTo(30_000);
  }

  @Test
  void neverLaterThanTheInterval() {
    assertThat(RetryDelay.afterFailures(1, 2_000)).isEqualTo(2_000);
    assertThat(RetryDelay.afterFailures(9, 12_000)).isEqualTo(12_000);
  }
}
