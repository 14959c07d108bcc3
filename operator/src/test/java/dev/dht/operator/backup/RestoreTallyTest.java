package dev.dht.operator.backup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.contract.backup.RestoreStatus;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RestoreTallyTest {
  private static final Instant NOW = Instant.parse("2026-11-26T12:00:00Z");
  private static final RestoreState START =
      RestoreState.builder().backup("b1").phase(RestoreState.RESTORING).build();

  private static RestoreStatus status(String backup, String phase, String reason) {
    return new RestoreStatus(backup, phase, 1, 3, 100, 50, 20, reason);
  }

  @Test
  void completedOnlyOnceEveryNodeCompletedEachRememberedAcrossRestarts() {
    var first =
        RestoreTally.next(
            START,
            3,
            Map.of(
                0, status("b1", RestoreStatus.COMPLETED, null),
                1, status("b1", RestoreStatus.RESTORING, null)),
            NOW);
    assertThat(first.completed()).isFalse();
    assertThat(first.getRestored()).containsExactly(0);
    assertThat(first.getKeysKept()).isEqualTo(40);

    // node 0 restarted since (it restores nothing now: the operator reads its 404 as failed): it
    // is still counted, and its answer is no failure
    var second =
        RestoreTally.next(
            first,
            3,
            Map.of(
                0, status("b1", RestoreStatus.FAILED, "restores nothing"),
                1, status("b1", RestoreStatus.COMPLETED, null),
                2, status("b1", RestoreStatus.COMPLETED, null)),
            NOW);
    assertThat(second.completed()).isTrue();
    assertThat(second.getReason()).isNull();
    assertThat(second.getRestored()).containsExactly(0, 1, 2);
    assertThat(second.getCompletedAt()).isEqualTo(NOW.toString());
    assertThat(RestoreTally.next(second, 3, Map.of(), NOW)).isSameAs(second);
  }

  @Test
  void aFailureIsReportedAndAnotherBackupsAnswerIsNotCounted() {
    var next =
        RestoreTally.next(
            START,
            2,
            Map.of(
                0, status("b1", RestoreStatus.FAILED, "file files/ab/cd missing"),
                1, status("other", RestoreStatus.COMPLETED, null)),
            NOW);
    assertThat(next.completed()).isFalse();
    assertThat(next.getRestored()).isEmpty();
    assertThat(next.getReason()).isEqualTo("node 0: file files/ab/cd missing");
  }
}
