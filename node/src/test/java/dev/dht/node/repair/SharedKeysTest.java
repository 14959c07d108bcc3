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
}
