package dev.dht.node.repair;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class RunProgressTest {
  private static final String A = "http://a:1";
  private static final String B = "http://b:1";
  private static final String C = "http://c:1";

  @Test
  void aResumedRunSkipsOnlyThePeersItCompletedNotOneThatFailedBeforeTheResumePoint() {
    RunProgress run = RunProgress.begin(1000);
    // A failed (nothing recorded), B completed, C was interrupted after key "k"
    run = run.completed(B).received(C, bytes("k"));
    RunProgress resumed = RunProgress.decode(run.encode());

    assertThat(resumed.resumed()).isTrue();
    assertThat(resumed.startedMillis()).as("when the interrupted run began").isEqualTo(1000);
    assertThat(resumed.startFor(A)).as("the failed peer: from its first key").isEmpty();
    assertThat(resumed.startFor(B)).as("the completed peer: skipped").isNull();
    assertThat(resumed.startFor(C)).as("after the last key received").isEqualTo(bytes("k\0"));
  }

  @Test
  void aNewRunPullsFromEveryPeer() {
    RunProgress run = RunProgress.begin(5);
    assertThat(run.resumed()).isFalse();
    assertThat(run.startFor(A)).isEmpty();
    RunProgress read = RunProgress.decode(run.completed(A).completed(C).encode());
    assertThat(read.done()).containsExactlyInAnyOrder(A, C);
    assertThat(read.peer()).isNull();
  }

  @Test
  void progressOfTheOlderFormatOrNoneIsNoProgress() {
    byte[] peer = bytes(A);
    byte[] older =
        ByteBuffer.allocate(2 + peer.length + 1)
            .putShort((short) peer.length)
            .put(peer)
            .put((byte) 'k')
            .array();
    assertThat(RunProgress.decode(older)).isNull();
    assertThat(RunProgress.decode(null)).isNull();
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
