package dev.dht.loadgen.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RunControlTest {
  private final RunControl control = new RunControl(GeneratorShare.ALONE, Duration.ofSeconds(1));

  @Test
  void aGeneratorWarmingItsJvmIsNotReadyForAStartUntilItIsWarm() {
    control.warming();
    assertThat(control.phase()).isEqualTo(RunControl.Phase.WARMING);
    control.warm();
    assertThat(control.phase()).isEqualTo(RunControl.Phase.WAITING);
  }

  @Test
  void aStartThatCameWhileWarmingIsKept() {
    control.warming();
    assertThat(control.start(1_000)).isTrue();
    control.warm();
    assertThat(control.phase()).isEqualTo(RunControl.Phase.STARTING);
    assertThat(control.startAt()).contains(1_000L);
  }
}
