package dev.dht.node.replication;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.node.storage.Record;
import org.junit.jupiter.api.Test;

class ReadRepairTest {
  private static final Record OLD = Record.value(10, new byte[] {1});
  private static final Record NEW = Record.value(20, new byte[] {2});
  private static final Record GONE = Record.tombstone(30);

  @Test
  void repairsReplicasThatAnsweredOlderOrNothing() {
    Record[] records = {NEW, OLD, null};
    assertThat(ReadRepair.stale(NEW, records, new boolean[] {true, true, true}))
        .containsExactly(1, 2);
  }

  @Test
  void replicasThatDidNotAnswerAreNotRepairedHere() {
    Record[] records = {NEW, null, OLD};
    assertThat(ReadRepair.stale(NEW, records, new boolean[] {true, false, false})).isEmpty();
  }

  @Test
  void agreeingReplicasNeedNothing() {
    assertThat(ReadRepair.stale(NEW, new Record[] {NEW, NEW}, new boolean[] {true, true}))
        .isEmpty();
  }

  @Test
  void nothingAnywhereNeedsNothing() {
    assertThat(ReadRepair.stale(null, new Record[] {null, null}, new boolean[] {true, true}))
        .isEmpty();
  }

  @Test
  void aNewerTombstoneIsRepairedOntoLiveOrMissingCopies() {
    Record[] records = {GONE, NEW, null};
    assertThat(ReadRepair.stale(GONE, records, new boolean[] {true, true, true}))
        .containsExactly(1, 2);
  }
}
