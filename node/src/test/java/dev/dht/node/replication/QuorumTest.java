package dev.dht.node.replication;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.node.cluster.Replication;
import dev.dht.node.storage.Record;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class QuorumTest {
  private static final Replication TWO_OF_THREE = new Replication(2, 3);

  @Test
  void reachedOnTheAckthSuccessAndReportedOnce() {
    Quorum quorum = new Quorum(2, 3);
    assertThat(quorum.success(null)).isEqualTo(Quorum.Outcome.PENDING);
    assertThat(quorum.success(null)).isEqualTo(Quorum.Outcome.REACHED);
    assertThat(quorum.success(null)).isEqualTo(Quorum.Outcome.PENDING);
    assertThat(quorum.failure()).isEqualTo(Quorum.Outcome.PENDING);
    assertThat(quorum.expire()).isFalse();
  }

  @Test
  void failsAsSoonAsAckIsOutOfReach() {
    Quorum quorum = new Quorum(2, 3);
    assertThat(quorum.failure()).isEqualTo(Quorum.Outcome.PENDING);
    assertThat(quorum.failure()).isEqualTo(Quorum.Outcome.FAILED);
    assertThat(quorum.success(null)).isEqualTo(Quorum.Outcome.PENDING);
  }

  @Test
  void expiresOnlyWhileUndecided() {
    Quorum quorum = new Quorum(3, 3);
    quorum.success(null);
    assertThat(quorum.expire()).isTrue();
    assertThat(quorum.success(null)).isEqualTo(Quorum.Outcome.PENDING);
    assertThat(quorum.success(null)).isEqualTo(Quorum.Outcome.PENDING);
  }

  @Test
  void aNewerTombstoneHidesAnOlderValue() {
    Quorum quorum = new Quorum(3, 3);
    quorum.success(Record.value(10, new byte[] {1}));
    quorum.success(Record.tombstone(20));
    quorum.success(null);
    assertThat(quorum.newest().tombstone()).isTrue();
  }

  @Test
  void aNewerValueWinsOverAnOlderTombstone() {
    Quorum quorum = new Quorum(2, 2);
    quorum.success(Record.tombstone(20));
    quorum.success(Record.value(30, new byte[] {7}));
    assertThat(quorum.newest().timestamp()).isEqualTo(30);
    assertThat(quorum.newest().valueBytes()).containsExactly(7);
  }

  @Property
  void newestIsTheMaximumWhateverTheArrivalOrder(
      @ForAll @Size(min = 1, max = 7) List<@LongRange(min = 0, max = 1_000) Long> timestamps,
      @ForAll @IntRange(min = 0, max = 3) int missing) {
    List<Record> answers = new ArrayList<>();
    timestamps.forEach(
        ts -> answers.add(ts % 3 == 0 ? Record.tombstone(ts) : Record.value(ts, new byte[0])));
    for (int i = 0; i < missing; i++) {
      answers.add(null);
    }
    Collections.shuffle(answers);
    Quorum quorum = new Quorum(answers.size(), answers.size());
    answers.forEach(quorum::success);
    assertThat(quorum.newest().timestamp()).isEqualTo(Collections.max(timestamps));
  }

  @Test
  void aJointQuorumNeedsAckFromEachRing() {
    Quorum joint = Quorum.joint(TWO_OF_THREE, TWO_OF_THREE);
    assertThat(joint.success(null, 1)).isEqualTo(Quorum.Outcome.PENDING);
    assertThat(joint.success(null, 1))
        .as("two of the current ring only")
        .isEqualTo(Quorum.Outcome.PENDING);
    assertThat(joint.success(null, 3)).as("one in both rings").isEqualTo(Quorum.Outcome.PENDING);
    assertThat(joint.success(null, 2)).isEqualTo(Quorum.Outcome.REACHED);

    Quorum failing = Quorum.joint(TWO_OF_THREE, TWO_OF_THREE);
    failing.success(null, 3);
    failing.failure(2);
    assertThat(failing.failure(2))
        .as("the next ring cannot reach 2")
        .isEqualTo(Quorum.Outcome.FAILED);
  }

  @Test
  void aJointQuorumOfAChangeOfTheDefaultsNeedsEachRingsAck() {
    Quorum widening = Quorum.joint(TWO_OF_THREE, new Replication(3, 5));
    widening.success(null, 3);
    assertThat(widening.success(null, 3))
        .as("two in both rings: the current ring's ack only")
        .isEqualTo(Quorum.Outcome.PENDING);
    assertThat(widening.success(null, 2)).isEqualTo(Quorum.Outcome.REACHED);

    Quorum failing = Quorum.joint(TWO_OF_THREE, new Replication(3, 5));
    failing.failure(2);
    failing.failure(2);
    assertThat(failing.failure(3))
        .as("three of the next ring's five failed: it cannot reach 3")
        .isEqualTo(Quorum.Outcome.FAILED);
  }
}
