package dev.dht.operator.backup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.contract.backup.VerifyStatus;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class VerificationsTest {
  static final Instant NOW = Instant.parse("2026-11-27T10:00:00Z");

  /** Backup b1 at {@code generation}, in {@code phase}, verify as given, with a verification. */
  static DhtBackup backup(
      long generation, String phase, Boolean verify, BackupVerification verification) {
    var backup = new DhtBackup();
    backup.setMetadata(
        new ObjectMetaBuilder()
            .withName("b1")
            .withNamespace("ns")
            .withGeneration(generation)
            .build());
    backup.setSpec(DhtBackupSpec.builder().cluster("demo").verify(verify).build());
    backup.setStatus(
        DhtBackupStatus.builder().phase(phase).backupId("b1").verification(verification).build());
    return backup;
  }

  static BackupVerification running(long generation) {
    return Verifications.started(
            backup(generation, DhtBackupStatus.COMPLETED, true, null),
            1,
            new VerifyAnswer.Started(),
            NOW)
        .next();
  }

  static VerifyStatus status(String backup, String phase, String reason) {
    return new VerifyStatus(backup, phase, 1_000L, 9_000L, 2, 3, 17, 4096L, 300L, reason);
  }

  @Test
  void onlyACompletedBackupAskedToBeVerifiedIsVerifiedOncePerGeneration() {
    assertThat(Verifications.need(backup(1, DhtBackupStatus.RUNNING, true, null)))
        .isInstanceOf(Verifications.Nothing.class);
    assertThat(Verifications.need(backup(1, DhtBackupStatus.FAILED, true, null)))
        .isInstanceOf(Verifications.Nothing.class);
    assertThat(Verifications.need(backup(1, DhtBackupStatus.COMPLETED, null, null)))
        .isInstanceOf(Verifications.Nothing.class);
    assertThat(Verifications.need(backup(1, DhtBackupStatus.COMPLETED, false, null)))
        .isInstanceOf(Verifications.Nothing.class);
    assertThat(Verifications.need(backup(1, DhtBackupStatus.COMPLETED, true, null)))
        .isInstanceOf(Verifications.Start.class);

    var passed = passedAt(1);
    assertThat(Verifications.need(backup(1, DhtBackupStatus.COMPLETED, true, passed)))
        .isInstanceOf(Verifications.Nothing.class);
    // verify set to false and back to true: generation 3 asks again
    assertThat(Verifications.need(backup(3, DhtBackupStatus.COMPLETED, true, passed)))
        .isInstanceOf(Verifications.Start.class);
    assertThat(Verifications.need(backup(2, DhtBackupStatus.COMPLETED, false, passed)))
        .as("a result stays when verify is turned off")
        .isInstanceOf(Verifications.Nothing.class);
  }

  @Test
  void aRunningCheckIsFollowedEvenIfNoLongerAskedForAndAPendingOneIsDropped() {
    assertThat(Verifications.need(backup(2, DhtBackupStatus.COMPLETED, false, running(1))))
        .isEqualTo(new Verifications.Follow(1));
    assertThat(Verifications.need(backup(1, DhtBackupStatus.COMPLETED, true, running(1))))
        .isEqualTo(new Verifications.Follow(1));
    var pending =
        Verifications.waiting(
                backup(1, DhtBackupStatus.COMPLETED, true, null), "ClusterBusy", "x", null)
            .next();
    assertThat(Verifications.need(backup(2, DhtBackupStatus.COMPLETED, false, pending)))
        .isInstanceOf(Verifications.Drop.class);
    assertThat(Verifications.need(backup(1, DhtBackupStatus.COMPLETED, true, pending)))
        .isInstanceOf(Verifications.Start.class);
  }

  @Test
  void aStartedCheckRunsOnItsNodeAndARefusalWaits() {
    var b = backup(4, DhtBackupStatus.COMPLETED, true, null);
    var started = Verifications.started(b, 1, new VerifyAnswer.Started(), NOW);
    assertThat(started.next().getPhase()).isEqualTo(BackupVerification.RUNNING);
    assertThat(started.next().getNode()).isEqualTo(1);
    assertThat(started.next().getObservedGeneration()).isEqualTo(4L);
    assertThat(started.next().getStartedAt()).isEqualTo("2026-11-27T10:00:00Z");
    assertThat(started.after()).isEqualTo(Verifications.POLL_PERIOD);

    var busy = Verifications.started(b, 0, new VerifyAnswer.Refused(409, "backup b2 runs"), NOW);
    assertThat(busy.next().getPhase()).isEqualTo(BackupVerification.PENDING);
    assertThat(busy.next().getReason()).isEqualTo(Verifications.NODE_BUSY);
    assertThat(busy.next().getMessage()).isEqualTo("node 0 cannot verify it now: backup b2 runs");
    assertThat(busy.next().getObservedGeneration()).isEqualTo(4L);
    assertThat(busy.after()).isEqualTo(Verifications.WAIT_PERIOD);

    var bad = Verifications.started(b, 0, new VerifyAnswer.Refused(400, "bad id"), NOW);
    assertThat(bad.next().getReason()).isEqualTo(Verifications.NODE_REFUSED);
    assertThat(bad.after()).isEqualTo(Verifications.RETRY_PERIOD);

    var silent = Verifications.started(b, 0, new VerifyAnswer.Unreachable("timed out"), NOW);
    assertThat(silent.next().getReason()).isEqualTo(Verifications.NODE_UNREACHABLE);
    assertThat(silent.after()).isEqualTo(Verifications.WAIT_PERIOD);
  }

  @Test
  void theNodesReportMakesProgressPassedFailedOrAnotherTry() {
    var running = running(2);

    var progress =
        Verifications.followed(
            running, "b1", new VerifyAnswer.Reported(status("b1", VerifyStatus.RUNNING, null)));
    assertThat(progress.next().getPhase()).isEqualTo(BackupVerification.RUNNING);
    assertThat(progress.next().getMembersChecked()).isEqualTo(2);
    assertThat(progress.next().getMembersTotal()).isEqualTo(3);
    assertThat(progress.next().getFilesChecked()).isEqualTo(17);
    assertThat(progress.next().getBytesDownloaded()).isEqualTo(4096L);
    assertThat(progress.next().getRecords()).isEqualTo(300L);
    assertThat(progress.next().getStartedAt()).isEqualTo("1970-01-01T00:00:01Z");
    assertThat(progress.next().getMessage()).contains("2 of 3 members");
    assertThat(progress.after()).isEqualTo(Verifications.POLL_PERIOD);

    var passed =
        Verifications.followed(
            running, "b1", new VerifyAnswer.Reported(status("b1", VerifyStatus.PASSED, null)));
    assertThat(passed.next().getPhase()).isEqualTo(BackupVerification.PASSED);
    assertThat(passed.next().getReason()).isNull();
    assertThat(passed.next().getCompletedAt()).isEqualTo("1970-01-01T00:00:09Z");
    assertThat(passed.next().getObservedGeneration()).isEqualTo(2L);
    assertThat(passed.next().getNode()).isEqualTo(1);
    assertThat(passed.after()).isNull();

    var failed =
        Verifications.followed(
            running,
            "b1",
            new VerifyAnswer.Reported(
                status("b1", VerifyStatus.FAILED, "member 2: file files/ab/ab12 missing")));
    assertThat(failed.next().getPhase()).isEqualTo(BackupVerification.FAILED);
    assertThat(failed.next().getReason()).isEqualTo(Verifications.BACKUP_DAMAGED);
    assertThat(failed.next().getMessage()).isEqualTo("member 2: file files/ab/ab12 missing");
    assertThat(failed.after()).isNull();

    var error =
        Verifications.followed(
            running,
            "b1",
            new VerifyAnswer.Reported(status("b1", VerifyStatus.ERROR, "store unreachable")));
    assertThat(error.next().getPhase()).isEqualTo(BackupVerification.PENDING);
    assertThat(error.next().getReason()).isEqualTo(Verifications.CHECK_ERROR);
    assertThat(error.next().getMessage()).contains("store unreachable");
    assertThat(error.next().getObservedGeneration()).isEqualTo(2L);
    assertThat(error.after()).isEqualTo(Verifications.RETRY_PERIOD);
  }

  @Test
  void aNodeThatLostTheCheckOrDoesNotAnswerIsAskedAgain() {
    var running = running(1);
    var other =
        Verifications.followed(
            running, "b1", new VerifyAnswer.Reported(status("b9", VerifyStatus.RUNNING, null)));
    assertThat(other.next().getPhase()).isEqualTo(BackupVerification.PENDING);
    assertThat(other.next().getReason()).isEqualTo(Verifications.NODE_RESTARTED);
    assertThat(other.next().getMessage()).contains("backup b9");
    assertThat(other.after()).isEqualTo(Verifications.WAIT_PERIOD);

    var none =
        Verifications.followed(
            running, "b1", new VerifyAnswer.NoCheck("no verification since this node started"));
    assertThat(none.next().getReason()).isEqualTo(Verifications.NODE_RESTARTED);

    // a node that does not answer is asked again how it goes, not asked to start over (another
    // node could be): the check may have finished meanwhile
    var silent = Verifications.followed(running, "b1", new VerifyAnswer.Unreachable("refused"));
    assertThat(silent.next().getPhase()).isEqualTo(BackupVerification.RUNNING);
    assertThat(silent.next().getNode()).isEqualTo(1);
    assertThat(silent.next().getReason()).isEqualTo(Verifications.NODE_UNREACHABLE);
    assertThat(silent.after()).isEqualTo(Verifications.WAIT_PERIOD);
    assertThat(Verifications.need(backup(1, DhtBackupStatus.COMPLETED, true, silent.next())))
        .isEqualTo(new Verifications.Follow(1));
    var back =
        Verifications.followed(
            silent.next(),
            "b1",
            new VerifyAnswer.Reported(status("b1", VerifyStatus.PASSED, null)));
    assertThat(back.next().getPhase()).isEqualTo(BackupVerification.PASSED);
    assertThat(back.next().getReason()).isNull();

    // these are Pending: the next round asks to verify again
    for (var step : java.util.List.of(other, none)) {
      assertThat(Verifications.need(backup(1, DhtBackupStatus.COMPLETED, true, step.next())))
          .isInstanceOf(Verifications.Start.class);
    }
  }

  static BackupVerification passedAt(long generation) {
    return Verifications.followed(
            running(generation),
            "b1",
            new VerifyAnswer.Reported(status("b1", VerifyStatus.PASSED, null)))
        .next();
  }
}
