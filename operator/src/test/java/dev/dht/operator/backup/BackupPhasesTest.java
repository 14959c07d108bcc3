package dev.dht.operator.backup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dht.contract.backup.BackupSummary;
import dev.dht.operator.backup.DhtBackupStatus.NodePart;
import java.time.Instant;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

class BackupPhasesTest {
  static final Instant START = Instant.parse("2026-11-26T12:00:00Z");
  static final ObjectStoreSpec STORE =
      ObjectStoreSpec.builder().bucket("b").path("ns/demo").endpoint("http://s3:8333").build();

  @Test
  void runningRecordsWhereAndWhenAndOnePartPerMember() {
    var running = BackupPhases.running("b1", STORE, 3, START);
    assertThat(running.getPhase()).isEqualTo(DhtBackupStatus.RUNNING);
    assertThat(running.getBackupId()).isEqualTo("b1");
    assertThat(running.getObjectStore()).isEqualTo(STORE);
    assertThat(running.getStartedAt()).isEqualTo("2026-11-26T12:00:00Z");
    assertThat(running.getNodes()).extracting(NodePart::getOrdinal).containsExactly(0, 1, 2);
    assertThat(BackupPhases.started(running)).isTrue();
    assertThat(BackupPhases.isFinal(running)).isFalse();
    assertThat(BackupPhases.started(BackupPhases.pending("ClusterBusy", "x"))).isFalse();
  }

  @Test
  void progressSumsTheParts() {
    var parts =
        List.of(
            NodePart.builder()
                .ordinal(0)
                .phase("completed")
                .filesUploaded(2)
                .bytesUploaded(20L)
                .filesReused(1)
                .bytesReused(5L)
                .build(),
            NodePart.builder()
                .ordinal(1)
                .phase("running")
                .filesUploaded(3)
                .bytesUploaded(30L)
                .build());
    var progressed = BackupPhases.progressed(BackupPhases.running("b1", STORE, 2, START), parts);
    assertThat(progressed.getFilesUploaded()).isEqualTo(5);
    assertThat(progressed.getBytesUploaded()).isEqualTo(50L);
    assertThat(progressed.getFilesReused()).isEqualTo(1);
    assertThat(progressed.getBytesReused()).isEqualTo(5L);
    assertThat(progressed.getMessage()).isEqualTo("1 of 2 nodes completed their parts");
  }

  @Test
  void completedTakesTheSummaryKeepsWhereAndWhenAndCountsWhatWasReused() {
    long cutMillis = Instant.parse("2026-11-26T12:00:01.234Z").toEpochMilli();
    var summary =
        new BackupSummary(
            1,
            "b1",
            7,
            List.of("http://a", "http://b"),
            2,
            cutMillis << 20 | 0x3f05,
            0,
            0,
            10,
            1000,
            4,
            300,
            null);
    var completed =
        BackupPhases.completed(
            BackupPhases.running("b1", STORE, 2, START), summary, START.plusSeconds(90));
    assertThat(completed.getPhase()).isEqualTo(DhtBackupStatus.COMPLETED);
    assertThat(completed.getObjectStore()).isEqualTo(STORE);
    assertThat(completed.getStoppedAt()).isEqualTo("2026-11-26T12:01:30Z");
    assertThat(completed.getCutTime()).isEqualTo("2026-11-26T12:00:01.234Z");
    assertThat(completed.getEpoch()).isEqualTo(7);
    assertThat(completed.getFiles()).isEqualTo(10);
    assertThat(completed.getBytes()).isEqualTo(1000);
    assertThat(completed.getFilesUploaded()).isEqualTo(4);
    assertThat(completed.getFilesReused()).isEqualTo(6);
    assertThat(completed.getBytesReused()).isEqualTo(700);
    var progressed =
        BackupPhases.progressed(
            BackupPhases.running("b1", STORE, 1, START),
            List.of(
                NodePart.builder()
                    .ordinal(0)
                    .phase("completed")
                    .filesReused(2)
                    .bytesReused(9L)
                    .build()));
    var fromNodes = BackupPhases.completed(progressed, summary, START.plusSeconds(90));
    assertThat(fromNodes.getFilesReused()).as("the nodes' own count").isEqualTo(2);
    assertThat(fromNodes.getBytesReused()).isEqualTo(9);
    assertThat(BackupPhases.isFinal(completed)).isTrue();
    assertThat(BackupPhases.durationSeconds(completed)).isEqualTo(90.0);
  }

  @Test
  void failedKeepsWhatWasKnown() {
    var failed =
        BackupPhases.failed(
            BackupPhases.running("b1", STORE, 2, START), "NodeFailed", "why", START.plusSeconds(1));
    assertThat(failed.getPhase()).isEqualTo(DhtBackupStatus.FAILED);
    assertThat(failed.getReason()).isEqualTo("NodeFailed");
    assertThat(failed.getObjectStore()).isEqualTo(STORE);
    assertThat(failed.getStartedAt()).isEqualTo("2026-11-26T12:00:00Z");
    assertThat(BackupPhases.isFinal(failed)).isTrue();
  }

  @Property
  void theHybridClocksMillisecondIsTheCutsTime(
      @ForAll @LongRange(min = 0, max = (1L << 43) - 1) long millis,
      @ForAll @LongRange(min = 0, max = (1L << 20) - 1) long low) {
    assertThat(HlcTime.of(millis << 20 | low)).isEqualTo(Instant.ofEpochMilli(millis));
  }

  @Test
  void aNegativeTimestampIsNoHybridClocks() {
    assertThatThrownBy(() -> HlcTime.of(-1)).isInstanceOf(IllegalArgumentException.class);
  }
}
