package dev.dht.operator.loadtest.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class GoDurationTest {

  @Test
  void parsesGoStyleDurations() {
    assertThat(GoDuration.parse("60s")).isEqualTo(Duration.ofSeconds(60));
    assertThat(GoDuration.parse("2m")).isEqualTo(Duration.ofMinutes(2));
    assertThat(GoDuration.parse("1h")).isEqualTo(Duration.ofHours(1));
    assertThat(GoDuration.parse("1m30s")).isEqualTo(Duration.ofSeconds(90));
    assertThat(GoDuration.parse("1.5s")).isEqualTo(Duration.ofMillis(1500));
    assertThat(GoDuration.parse("500ms")).isEqualTo(Duration.ofMillis(500));
    assertThat(GoDuration.parse("0s")).isEqualTo(Duration.ZERO);
  }

  @Test
  void refusesWhatTheCrdPatternRefuses() {
    for (String bad : new String[] {"60", "1d", "-5s", "1 m", "", "s"}) {
      assertThatThrownBy(() -> GoDuration.parse(bad))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Test
  void formatsForTheLoadGeneratorWithOneUnit() {
    assertThat(GoDuration.toLoadgenArg(Duration.ofSeconds(90))).isEqualTo("90s");
    assertThat(GoDuration.toLoadgenArg(Duration.ofMillis(1500))).isEqualTo("1500ms");
    assertThat(GoDuration.toLoadgenArg(Duration.ZERO)).isEqualTo("0s");
  }
}
