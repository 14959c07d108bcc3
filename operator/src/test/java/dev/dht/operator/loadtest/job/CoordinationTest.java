package dev.dht.operator.loadtest.job;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CoordinationTest {
  static GeneratorProgress g(int index, String phase, Long startAt) {
    return new GeneratorProgress(
        index,
        "p" + index,
        "http://10.0.0." + index + ":9090",
        phase,
        startAt,
        0,
        false,
        0,
        0,
        0,
        0,
        null);
  }

  @Test
  void noStartUntilEveryGeneratorWaits() {
    var next =
        Coordination.next(3, List.of(g(0, "waiting", null), g(1, null, null)), null, Set.of(), 0);

    assertThat(next.startAt()).isNull();
    assertThat(next.toStart()).isEmpty();
    assertThat(next.waiting()).isEqualTo("1 of 3 generators up and waiting for the start");
  }

  @Test
  void allWaitingGetOneStartTimeWithAMargin() {
    var next =
        Coordination.next(
            2, List.of(g(0, "waiting", null), g(1, "waiting", null)), null, Set.of(), 10_000);

    assertThat(next.startAt()).isEqualTo(10_000 + Coordination.START_MARGIN_MS);
    assertThat(next.toStart()).extracting(GeneratorProgress::index).containsExactly(0, 1);
    assertThat(next.waiting()).isNull();
  }

  @Test
  void theStartTimeKeptIsGivenAgainToOneThatMissedIt() {
    var next =
        Coordination.next(
            2, List.of(g(0, "running", 5_000L), g(1, "waiting", null)), 5_000L, Set.of(), 9_000);

    assertThat(next.startAt()).isEqualTo(5_000);
    assertThat(next.toStart()).extracting(GeneratorProgress::index).containsExactly(1);
  }

  @Test
  void aStartTimeGivenBeforeAnOperatorRestartIsAdoptedFromTheGenerators() {
    var next =
        Coordination.next(
            2, List.of(g(0, "starting", 7_000L), g(1, "waiting", null)), null, Set.of(), 6_000);

    assertThat(next.startAt()).isEqualTo(7_000);
    assertThat(next.toStart()).extracting(GeneratorProgress::index).containsExactly(1);
  }

  @Test
  void finishedGeneratorsAreCollectedOnce() {
    var next =
        Coordination.next(
            3,
            List.of(g(0, "done", 1L), g(1, "done", 1L), g(2, "running", 1L)),
            1L,
            Set.of(0),
            9_000);

    assertThat(next.toCollect()).extracting(GeneratorProgress::index).containsExactly(1);
  }
}
