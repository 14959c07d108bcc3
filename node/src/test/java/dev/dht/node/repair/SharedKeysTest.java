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
  void aStreamMovesWhatThePullerWillOwnAndDoesNotOwnYetFromTheOwnerThatHandsItOver() {
    Topology d = growing("http://d:1");
    List<String> owners = List.of("http://a:1", "http://b:1", "http://c:1");
    List<SharedKeys> pulled =
        owners.stream().map(source -> SharedKeys.pulledFrom(d, source, 3, true)).toList();
    List<SharedKeys> answered =
        owners.stream()
            .map(source -> SharedKeys.pulledBy(growing(source), "http://d:1", 3, true))
            .toList();
    int moving = 0;
    for (int i = 0; i < 5000; i++) {
      byte[] key = ("k" + i).getBytes(StandardCharsets.UTF_8);
      boolean willOwn =
          java.util.Arrays.stream(d.nextReplicas(key, 3)).anyMatch(r -> r == d.selfIndex());
      int senders = 0;
      for (int s = 0; s < owners.size(); s++) {
        assertThat(answered.get(s).contains(key))
            .as("seen alike from the source")
            .isEqualTo(pulled.get(s).contains(key));
        if (pulled.get(s).contains(key)) {
          senders++;
          int sender = s;
          assertThat(java.util.Arrays.stream(d.nextReplicas(key, 3)).noneMatch(r -> r == sender))
              .as("the sender leaves the key's replicas")
              .isTrue();
        }
      }
      assertThat(senders).as("one owner sends it, if d will own it").isEqualTo(willOwn ? 1 : 0);
      moving += willOwn ? 1 : 0;
    }
    assertThat(moving).as("d owns 3/5 of the keys after").isBetween(2800, 3200);
    assertThat(SharedKeys.nothingToPull(d)).isFalse();
  }

  /** Members of MEMBERS with the given states, the rest not members; 2/3 in both rings. */
  private static Topology withStates(String self, Topology.State... states) {
    java.util.Map<String, Topology.State> byMember = new java.util.LinkedHashMap<>();
    for (int m = 0; m < states.length; m++) {
      byMember.put(MEMBERS.get(m), states[m]);
    }
    var twoOfThree = new dev.dht.node.cluster.Replication.Defaults(2, 3);
    return Topology.of(2, byMember, twoOfThree, twoOfThree, false, self);
  }

  @Test
  void everyCopyOfAKeyStaysOrMovesToAReplicaOfItsOwn() {
    var n = Topology.State.NORMAL;
    var joining = Topology.State.JOINING;
    var leaving = Topology.State.LEAVING;
    List<Topology> changes =
        List.of(
            withStates("http://a:1", n, n, n, joining, joining),
            withStates("http://a:1", n, n, n, leaving, leaving),
            withStates("http://a:1", n, leaving, n, joining),
            withStates("http://a:1", leaving, leaving, n, n, joining));
    for (Topology t : changes) {
      for (int i = 0; i < 3000; i++) {
        byte[] key = ("k" + i).getBytes(StandardCharsets.UTF_8);
        int[] owners = t.replicas(key, 3);
        int[] next = t.nextReplicas(key, 3);
        java.util.Set<Integer> handing = new java.util.HashSet<>();
        int joiningKey = 0;
        for (int member : next) {
          if (java.util.Arrays.stream(owners).noneMatch(o -> o == member)) {
            joiningKey++;
            int from = SharedKeys.handingOver(owners, next, member);
            assertThat(java.util.Arrays.stream(owners).anyMatch(o -> o == from)).isTrue();
            assertThat(java.util.Arrays.stream(next).noneMatch(x -> x == from))
                .as("an owner that leaves the key's replicas hands it over")
                .isTrue();
            handing.add(from);
          } else {
            assertThat(SharedKeys.handingOver(owners, next, member)).isEqualTo(-1);
          }
        }
        assertThat(handing).as("each to a replica of its own: " + t).hasSize(joiningKey);
      }
    }
  }

  @Test
  void aLostOwnerHandsNothingOverSoEveryLiveOwnerSendsItsKeys() {
    var n = Topology.State.NORMAL;
    Topology e = withStates("http://e:1", n, Topology.State.LOST, n, n, Topology.State.JOINING);
    List<SharedKeys> fromLive =
        List.of("http://a:1", "http://c:1", "http://d:1").stream()
            .map(source -> SharedKeys.pulledFrom(e, source, 3, true))
            .toList();
    int fromB = 0;
    for (int i = 0; i < 3000; i++) {
      byte[] key = ("k" + i).getBytes(StandardCharsets.UTF_8);
      int[] owners = e.replicas(key, 3);
      if (SharedKeys.handingOver(owners, e.nextReplicas(key, 3), e.selfIndex()) != 1) {
        continue;
      }
      fromB++;
      for (SharedKeys keys : fromLive) {
        boolean owns = java.util.Arrays.stream(owners).anyMatch(o -> o == keys.source());
        assertThat(keys.contains(key)).as("every live owner sends it").isEqualTo(owns);
      }
    }
    assertThat(fromB).as("b, lost, owned 3/4 of the keys e takes").isGreaterThan(1000);
  }

  @Test
  void anOwnerThatStaysAReplicaOfEveryKeyHandsNothingOver() {
    var n = Topology.State.NORMAL;
    var leaving = Topology.State.LEAVING;
    Topology b = withStates("http://b:1", n, n, n, leaving, leaving);
    SharedKeys byA = SharedKeys.pulledBy(b, "http://a:1", 3, true);
    assertThat(byA.nothingHandedOver()).isTrue();
    for (int i = 0; i < 2000; i++) {
      assertThat(byA.contains(("k" + i).getBytes(StandardCharsets.UTF_8))).isFalse();
    }
    assertThat(SharedKeys.pulledFrom(b, "http://d:1", 3, true).nothingHandedOver()).isFalse();
    Topology growing = growing("http://d:1");
    assertThat(SharedKeys.pulledFrom(growing, "http://a:1", 3, true).nothingHandedOver())
        .as("3 -> 5: a leaves some keys' replicas")
        .isFalse();
    assertThat(SharedKeys.pulledFrom(b, "http://a:1", 3, false).nothingHandedOver()).isFalse();
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
