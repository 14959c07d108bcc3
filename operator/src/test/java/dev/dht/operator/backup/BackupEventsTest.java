package dev.dht.operator.backup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.operator.kube.Events;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class BackupEventsTest {
  static final ObjectStoreSpec STORE = ObjectStoreSpec.builder().bucket("b").path("p").build();
  static final Instant NOW = Instant.parse("2026-11-26T12:00:00Z");

  @Test
  void aPendingBackupSaysEachNewReasonOnce() {
    var busy = BackupPhases.pending("ClusterBusy", "rolling");
    assertThat(BackupEvents.between(null, busy))
        .containsExactly(new Events.Transition(Events.NORMAL, "ClusterBusy", "rolling"));
    assertThat(BackupEvents.between(busy, BackupPhases.pending("ClusterBusy", "scaling")))
        .isEmpty();
    assertThat(BackupEvents.between(busy, BackupPhases.pending("NoBackupStore", "none")))
        .extracting(Events.Transition::reason)
        .containsExactly("NoBackupStore");
  }

  @Test
  void startedCompletedAndFailedAreSaidOnTheirTransitionOnly() {
    var running = BackupPhases.running("b1", STORE, 3, NOW);
    assertThat(BackupEvents.between(BackupPhases.pending("ClusterBusy", "x"), running))
        .singleElement()
        .satisfies(e -> {
          assertThat(e.type()).isEqualTo(Events.NORMAL);
          assertThat(e.reason()).isEqualTo(BackupEvents.STARTED);
          assertThat(e.message()).contains("3 nodes").contains("bucket b under p");
        });
    assertThat(BackupEvents.between(running, running.toBuilder().message("more").build()))
        .isEmpty();
    var failed = BackupPhases.failed(running, "NodeFailed", "node 1 failed", NOW);
    assertThat(BackupEvents.between(running, failed))
        .containsExactly(
            new Events.Transition(
                Events.WARNING, BackupEvents.FAILED, "NodeFailed: node 1 failed"));
    assertThat(BackupEvents.between(failed, failed)).isEmpty();
  }
}
