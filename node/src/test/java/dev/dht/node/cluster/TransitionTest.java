package dev.dht.node.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dht.node.ConfigFiles;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Placement during a membership transition: joint writes, and the read ring of each step. */
class TransitionTest {
  private static final String A = "http://a:1";
  private static final String B = "http://b:1";
  private static final String C = "http://c:1";
  private static final String D = "http://d:1";
  private static final String E = "http://e:1";

  private static Topology growing(boolean readNext) {
    Map<String, Topology.State> states = new LinkedHashMap<>();
    for (String url : new String[] {A, B, C}) {
      states.put(url, Topology.State.NORMAL);
    }
    states.put(D, Topology.State.JOINING);
    states.put(E, Topology.State.JOINING);
    return Topology.of(2, states, readNext, A);
  }

  private static final Replication.Defaults UNSET = Replication.Defaults.UNCONFIGURED;

  private static Replication.Rings rings(int from) {
    Replication r = new Replication(Replication.majority(from), from);
    return new Replication.Rings(r, r);
  }

  private static byte[] key(int i) {
    return ("key-" + i).getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void writesGoToBothRingsAndEachReplicaKnowsItsRings() {
    Topology t = growing(false);
    Topology before = Topology.of(java.util.List.of(A, B, C), A);
    Topology after = Topology.of(java.util.List.of(A, B, C, D, E), A);
    assertThat(t.inTransition()).isTrue();
    assertThat(t.size()).isEqualTo(3);
    for (int i = 0; i < 500; i++) {
      Topology.WriteSet set = t.writeReplicas(key(i), rings(3));
      int[] now = before.replicas(key(i), 3);
      int[] later = after.replicas(key(i), 3);
      assertThat(t.replicas(key(i), 3)).as("reads use the current ring").containsExactly(now);
      assertThat(t.nextReplicas(key(i), 3)).containsExactly(later);
      for (int r = 0; r < set.replicas().length; r++) {
        int member = set.replicas()[r];
        boolean inNow = IntStream.of(now).anyMatch(m -> m == member);
        boolean inLater = IntStream.of(later).anyMatch(m -> m == member);
        assertThat(set.groups()[r])
            .isEqualTo(
                (inNow ? Topology.WriteSet.CURRENT : 0) | (inLater ? Topology.WriteSet.NEXT : 0));
      }
      assertThat(set.replicas()).doesNotHaveDuplicates();
      assertThat(set.replicas().length)
          .isEqualTo(
              (int) IntStream.concat(IntStream.of(now), IntStream.of(later)).distinct().count());
    }
    assertThat(growing(true).replicas(key(7), 3)).containsExactly(after.replicas(key(7), 3));
  }

  @Test
  void withoutATransitionAWriteGoesToTheReadReplicas() {
    Topology t = Topology.of(java.util.List.of(A, B, C, D), B);
    Topology.WriteSet set = t.writeReplicas(key(1), rings(3));
    assertThat(set.replicas()).containsExactly(t.replicas(key(1), 3));
    assertThat(Arrays.stream(set.groups()).allMatch(g -> g == Topology.WriteSet.CURRENT)).isTrue();
  }

  @Test
  void aChangeOfTheDefaultsWritesToTheWiderSetAndReadsTheNarrowerOneFirst() {
    Map<String, Topology.State> five = new LinkedHashMap<>();
    for (String url : new String[] {A, B, C, D, E}) {
      five.put(url, Topology.State.NORMAL);
    }
    var before = new Replication.Defaults(2, 3);
    var after = new Replication.Defaults(3, 5);
    Topology joint = Topology.of(4, five, before, after, false, C);
    Topology readingNext = Topology.of(5, five, before, after, true, C);
    assertThat(joint.inTransition()).isTrue();
    Replication.Rings defaults = joint.resolve(null, null);
    assertThat(defaults)
        .isEqualTo(new Replication.Rings(new Replication(2, 3), new Replication(3, 5)));
    assertThat(joint.resolve(null, "2"))
        .as("a request that names its from is the same in both rings")
        .isEqualTo(new Replication.Rings(new Replication(2, 2), new Replication(2, 2)));
    for (int i = 0; i < 200; i++) {
      Topology.WriteSet set = joint.writeReplicas(key(i), defaults);
      assertThat(set.replicas()).hasSize(5);
      assertThat(Arrays.stream(set.groups()).filter(g -> g == 3).count())
          .as("the current ring's three are in both rings")
          .isEqualTo(3);
      assertThat(joint.replicas(key(i), joint.reads(defaults).from()))
          .containsExactly(joint.currentReplicas(key(i), 3));
      assertThat(readingNext.replicas(key(i), readingNext.reads(defaults).from())).hasSize(5);
    }
    assertThat(Topology.of(6, five, after, after, false, C).inTransition()).isFalse();
  }

  @Test
  void aLostMemberKeepsItsPlaceInTheCurrentRingButIsNoPeerToWaitFor() {
    Map<String, Topology.State> states = new LinkedHashMap<>();
    for (String url : new String[] {A, B, C}) {
      states.put(url, Topology.State.NORMAL);
    }
    states.put(D, Topology.State.LOST);
    Topology t = Topology.of(2, states, false, A);
    Topology before = Topology.of(java.util.List.of(A, B, C, D), A);
    Topology after = Topology.of(java.util.List.of(A, B, C), A);
    assertThat(t.inTransition()).isTrue();
    for (int i = 0; i < 100; i++) {
      assertThat(t.currentReplicas(key(i), 3)).containsExactly(before.replicas(key(i), 3));
      assertThat(t.nextReplicas(key(i), 3)).containsExactly(after.replicas(key(i), 3));
    }
    assertThat(t.isLivePeer(1)).isTrue();
    assertThat(t.isLivePeer(0)).as("itself").isFalse();
    assertThat(t.isLivePeer(3)).as("lost").isFalse();
    assertThat(ConfigFiles.topology("epoch 2\nhttp://a:1\nhttp://d:1 lost\n", A, UNSET).state(1))
        .isEqualTo(Topology.State.LOST);
  }

  @Test
  void theMembershipFileCarriesEpochReadRingAndStates() {
    Topology t =
        ConfigFiles.topology(
            "# scaling\nepoch 7\nread-from next\nhttp://a:1\nhttp://b:1\nhttp://c:1 leaving\n",
            "http://b:1",
            Replication.Defaults.UNCONFIGURED);
    assertThat(t.epoch()).isEqualTo(7);
    assertThat(t.readsNext()).isTrue();
    assertThat(t.state(2)).isEqualTo(Topology.State.LEAVING);
    assertThat(t.size()).isEqualTo(2);
    assertThat(ConfigFiles.members("epoch 7\nread-from next\nhttp://a:1 joining\n"))
        .containsExactly("http://a:1");
    assertThatThrownBy(
            () -> ConfigFiles.topology("epoch 1\nhttp://a:1 gone\n", "http://a:1", UNSET))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aNodeNotYetListedWaitsAsJoining() {
    Topology t = ConfigFiles.topology("epoch 3\nhttp://a:1\nhttp://b:1\n", "http://z:1", UNSET);
    assertThat(t.state(t.selfIndex())).isEqualTo(Topology.State.JOINING);
    assertThat(t.replicas(key(1), 2)).as("it owns nothing yet").doesNotContain(t.selfIndex());
    assertThatThrownBy(() -> ConfigFiles.topology("http://a:1\n", "http://z:1", UNSET))
        .as("a plain member list without self is a configuration error")
        .isInstanceOf(IllegalArgumentException.class);
  }
}
