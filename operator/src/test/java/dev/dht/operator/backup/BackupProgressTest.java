package dev.dht.operator.backup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.contract.backup.NodeBackupStatus;
import dev.dht.operator.backup.DhtBackupStatus.NodePart;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BackupProgressTest {
  static final Instant NOW = Instant.parse("2026-11-26T12:00:00Z");

  static NodeAnswer part(String id, String phase, int uploaded, long bytes, String reason) {
    return new NodeAnswer.Reported(
        new NodeBackupStatus(id, phase, 1, 0, 5, 6, 10, uploaded, 10 - uploaded, bytes, 7, reason));
  }

  @Test
  void partsStillRunningKeepTheBackupRunningWithWhatEachReported() {
    var progress =
        BackupProgress.of(
            "b1",
            List.of(),
            Map.of(
                0, part("b1", "completed", 4, 400, null), 1, part("b1", "running", 2, 200, null)),
            NOW);
    assertThat(progress.verdict()).isInstanceOf(BackupProgress.Running.class);
    assertThat(progress.parts())
        .extracting(NodePart::getOrdinal, NodePart::getPhase, NodePart::getBytesUploaded)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(0, "completed", 400L),
            org.assertj.core.groups.Tuple.tuple(1, "running", 200L));
  }

  @Test
  void everyPartCompletedIsReadyToSeal() {
    var progress =
        BackupProgress.of(
            "b1",
            List.of(),
            Map.of(0, part("b1", "completed", 4, 1, null), 1, part("b1", "completed", 0, 0, null)),
            NOW);
    assertThat(progress.verdict()).isInstanceOf(BackupProgress.AllCompleted.class);
  }

  @Test
  void aFailedPartFailsTheBackupWithTheNodesReason() {
    var progress =
        BackupProgress.of(
            "b1",
            List.of(),
            Map.of(
                0, part("b1", "completed", 4, 1, null),
                1, part("b1", "failed", 0, 0, "store unreachable: connection refused")),
            NOW);
    assertThat(progress.verdict())
        .isEqualTo(
            new BackupProgress.Failed(
                BackupProgress.NODE_FAILED,
                "node 1 failed its part: store unreachable: connection refused"));
  }

  @Test
  void aNodeWithoutThePartLostItAndFailsTheBackup() {
    var noBackup =
        BackupProgress.of(
            "b1",
            List.of(),
            Map.of(0, new NodeAnswer.NoBackup("no backup since this node started")),
            NOW);
    assertThat(noBackup.verdict())
        .isInstanceOfSatisfying(
            BackupProgress.Failed.class,
            f -> {
              assertThat(f.reason()).isEqualTo(BackupProgress.NODE_LOST_BACKUP);
              assertThat(f.message()).contains("restarted");
            });
    var another =
        BackupProgress.of("b1", List.of(), Map.of(0, part("b2", "running", 0, 0, null)), NOW);
    assertThat(another.verdict())
        .isInstanceOfSatisfying(
            BackupProgress.Failed.class,
            f -> assertThat(f.message()).contains("reports backup b2"));
    assertThat(another.parts().getFirst().getPhase()).isEqualTo("failed");
  }

  @Test
  void aSilentNodeFailsTheBackupOnlyAfterTwoMinutes() {
    var first =
        BackupProgress.of(
            "b1",
            List.of(),
            Map.of(
                0, part("b1", "completed", 1, 1, null), 1, new NodeAnswer.Unreachable("refused")),
            NOW);
    assertThat(first.verdict()).isInstanceOf(BackupProgress.Running.class);
    assertThat(first.parts().get(1).getUnreachableSince()).isEqualTo(NOW.toString());

    var later = NOW.plus(BackupProgress.UNREACHABLE_LIMIT);
    var still =
        BackupProgress.of(
            "b1", first.parts(), Map.of(1, new NodeAnswer.Unreachable("refused")), later);
    assertThat(still.verdict()).isInstanceOf(BackupProgress.Running.class);
    assertThat(still.parts().getFirst().getUnreachableSince()).isEqualTo(NOW.toString());

    var tooLate =
        BackupProgress.of(
            "b1",
            first.parts(),
            Map.of(1, new NodeAnswer.Unreachable("refused")),
            later.plusSeconds(1));
    assertThat(tooLate.verdict())
        .isInstanceOfSatisfying(
            BackupProgress.Failed.class,
            f -> assertThat(f.reason()).isEqualTo(BackupProgress.NODE_UNREACHABLE));
  }

  @Test
  void aNodeThatAnswersAgainIsNoLongerCountedSilent() {
    var silent =
        BackupProgress.of("b1", List.of(), Map.of(0, new NodeAnswer.Unreachable("timeout")), NOW);
    var back =
        BackupProgress.of(
            "b1",
            silent.parts(),
            Map.of(0, part("b1", "running", 1, 1, null)),
            NOW.plus(Duration.ofMinutes(1)));
    assertThat(back.parts().getFirst().getUnreachableSince()).isNull();
    var silentAgain =
        BackupProgress.of(
            "b1",
            back.parts(),
            Map.of(0, new NodeAnswer.Unreachable("timeout")),
            NOW.plus(Duration.ofMinutes(3)));
    assertThat(silentAgain.verdict()).isInstanceOf(BackupProgress.Running.class);
  }
}
