package dev.dht.node.repair;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dht.node.cluster.Topology;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class SharedKeysTest {
  private static final List<String> MEMBERS =
      List.of("http://a:1", "http://b:1", "http://c:1", "http://d:1", "http://e:1");

  @Test
  void twoReplicasShareExactlyTheKeysWhoseReplicasIncludeBoth() {
    Topology a = Topology.of(MEMBERS, "http://a:1");
    Topology c = Topology.of(MEMBERS, "http://c:1");
    SharedKeys fromA = SharedKeys.pulledFrom(a, "http://c:1", 3, false);
    SharedKeys fromC = SharedKeys.pulledBy(c, "http://a:1", 3, false);
    int shared = 0;
    for (int i = 0; i < 5000; i++) {
      byte[] key = ("k" + i).getBytes(StandardCharsets.UTF_8);
      int[] replicas = a.replicas(key, 3);
      boolean both =
          java.util.Arrays.stream(replicas).anyMatch(r -> r == 0)
              && java.util.Arrays.stream(replicas).anyMatch(r -> r == 2);
      assertThat(fromA.contains(key)).isEqualTo(both);
      assertThat(fromC.contains(key)).as("the same set seen from the other side").isEqualTo(both);
      shared += both ? 1 : 0;
    }
    assertThat(shared).as("3 of 5 replicas: a pair shares 3/10 of the keys").isBetween(1300, 1700);
  }

  @Test
  void onlyAnotherMemberAndAReplicationOfTwoOrMoreMakeSense() {
    Topology a = Topology.of(MEMBERS, "http://a:1");
    assertThatThrownBy(() -> SharedKeys.pulledFrom(a, "http://a:1", 3, false))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> SharedKeys.pulledFrom(a, "http://z:1", 3, false))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> SharedKeys.pulledFrom(a, "http://b:1", 1, false))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> SharedKeys.pulledFrom(a, "http://b:1", 6, false))
        .isInstanceOf(IllegalArgumentException.class);
  }

  /** 3 -> 5 at a configured 2/3, as node {@code self} sees it. */
  private static Topology growing(String self) {
    var twoOfThree = new dev.dht.node.cluster.Replication.Defaults(2, 3);
    return Topology.of(2, threeJoinedByTwo(), twoOfThree, twoOfThree, false, self);
  }

  /** a, b, c normal; d, e joining. */
  private static java.util.Map<String, Topology.State> threeJoinedByTwo() {
    java.util.Map<String, Topology.State> states = new java.util.LinkedHashMap<>();
    for (String m : MEMBERS) {
      states.put(
          m,
          m.startsWith("http://d") || m.startsWith("http://e")
              ? Topology.State.JOINING
              : Topology.State.NORMAL);
    }
    return states;
  }

  @Test
  void aStreamMovesWhatThePullerWillOwnAndDoesNotOwnYetFromEachOwnerNow() {
    Topology d = growing("http://d:1");
    Topology a = growing("http://a:1");
    List<SharedKeys> pulled =
        List.of("http://a:1", "http://b:1", "http://c:1").stream()
            .map(source -> SharedKeys.pulledFrom(d, source, 3, true))
            .toList();
    SharedKeys answeredByA = SharedKeys.pulledBy(a, "http://d:1", 3, true);
    int moving = 0;
    for (int i = 0; i < 5000; i++) {
      byte[] key = ("k" + i).getBytes(StandardCharsets.UTF_8);
      boolean willOwn =
          java.util.Arrays.stream(d.nextReplicas(key, 3)).anyMatch(r -> r == d.selfIndex());
      for (SharedKeys fromSource : pulled) {
        assertThat(fromSource.contains(key)).as("every owner now sends it").isEqualTo(willOwn);
      }
      assertThat(answeredByA.contains(key)).as("seen from the source").isEqualTo(willOwn);
      moving += willOwn ? 1 : 0;
    }
    assertThat(moving).as("d owns 3/5 of the keys after").isBetween(2800, 3200);
    assertThat(SharedKeys.nothingToPull(d)).isFalse();
  }

  @Test
  void aMemberThatOwnsEveryKeyNowPullsNothing() {
    Topology a = growing("http://a:1");
    assertThat(SharedKeys.nothingToPull(a)).as("3 members at from=3 own every key").isTrue();
    for (String source : List.of("http://b:1", "http://c:1")) {
      SharedKeys keys = SharedKeys.pulledFrom(a, source, 3, true);
      for (int i = 0; i < 2000; i++) {
        assertThat(keys.contains(("k" + i).getBytes(StandardCharsets.UTF_8))).isFalse();
      }
    }
  }

  @Test
  void whenTheReplicationChangesAReplicaThatStaysAlsoTakesWhatItMissed() {
    java.util.Map<String, Topology.State> states = new java.util.LinkedHashMap<>();
    MEMBERS.forEach(m -> states.put(m, Topology.State.NORMAL));
    Topology a =
        Topology.of(
            2,
            states,
            new dev.dht.node.cluster.Replication.Defaults(3, 5),
            new dev.dht.node.cluster.Replication.Defaults(2, 3),
            false,
            "http://a:1");
    SharedKeys fromB = SharedKeys.pulledFrom(a, "http://b:1", 5, true);
    assertThat(SharedKeys.nothingToPull(a)).as("it owns every key, but 3/5 -> 2/3").isFalse();
    int owned = 0;
    for (int i = 0; i < 2000; i++) {
      byte[] key = ("k" + i).getBytes(StandardCharsets.UTF_8);
      boolean staysOwner =
          java.util.Arrays.stream(a.nextReplicas(key, 3)).anyMatch(r -> r == a.selfIndex());
      assertThat(fromB.contains(key))
          .as("every key a keeps, though it owns it now")
          .isEqualTo(staysOwner);
      assertThat(fromB.ownedNowByPuller(key)).isTrue();
      owned += staysOwner ? 1 : 0;
    }
    assertThat(owned).isBetween(1000, 1400);
  }

  @Test
  void growingWithNoConfiguredFromChangesTheReplicationSoEveryKeyIsPulled() {
    // unconfigured: from = every member
    Topology a = Topology.of(2, threeJoinedByTwo(), false, "http://a:1");
    assertThat(a.replicationStays()).as("3 copies now, 5 after").isFalse();
    assertThat(SharedKeys.nothingToPull(a)).isFalse();
    assertThat(growing("http://a:1").replicationStays()).isTrue();
  }
}
