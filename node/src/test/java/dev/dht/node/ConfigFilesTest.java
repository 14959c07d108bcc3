package dev.dht.node;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.node.cluster.Replication;
import dev.dht.node.cluster.Replication.Defaults;
import dev.dht.node.cluster.Topology;
import org.junit.jupiter.api.Test;

class ConfigFilesTest {
  private static final Defaults FLAGS = new Defaults(2, 3);
  private static final Defaults UNSET = Defaults.UNCONFIGURED;

  @Test
  void membersAreOneUrlALineWithoutBlanksAndComments() {
    String file = "# members\nhttp://a:1\n\n  http://b:2  \r\n#http://c:3\nhttp://d:4";
    assertThat(ConfigFiles.members(file)).containsExactly("http://a:1", "http://b:2", "http://d:4");
    assertThat(ConfigFiles.members("")).isEmpty();
  }

  @Test
  void zonesPlaceKeysAndAChangeOfThemIsATransition() {
    String plain = "epoch 1\nhttp://a:1\nhttp://b:1\nhttp://c:1\nhttp://d:1\n";
    String zoned =
        "epoch 3\nhttp://a:1 zone=x\nhttp://b:1 zone=x\nhttp://c:1 zone=y\nhttp://d:1 zone=y\n";
    String moving =
        "epoch 2\nhttp://a:1 next-zone=x\nhttp://b:1 next-zone=x\nhttp://c:1 next-zone=y\n"
            + "http://d:1 next-zone=y\n";
    Topology before = ConfigFiles.topology(plain, "http://a:1", FLAGS);
    Topology during = ConfigFiles.topology(moving, "http://a:1", FLAGS);
    Topology after = ConfigFiles.topology(zoned, "http://a:1", FLAGS);
    assertThat(before.inTransition()).isFalse();
    assertThat(after.inTransition()).isFalse();
    assertThat(during.inTransition()).as("other zones next: a transition").isTrue();
    assertThat(after.zones()).containsExactly("x", "x", "y", "y");
    int moved = 0;
    for (int k = 0; k < 1000; k++) {
      byte[] key = ("k" + k).getBytes(java.nio.charset.StandardCharsets.UTF_8);
      assertThat(during.currentReplicas(key, 2)).containsExactly(before.currentReplicas(key, 2));
      assertThat(during.nextReplicas(key, 2)).containsExactly(after.currentReplicas(key, 2));
      int[] replicas = after.currentReplicas(key, 2);
      assertThat(after.zones().get(replicas[0])).isNotEqualTo(after.zones().get(replicas[1]));
      moved += java.util.Arrays.equals(before.currentReplicas(key, 2), replicas) ? 0 : 1;
    }
    assertThat(moved).as("keys whose two replicas were in one zone").isBetween(250, 420);
    assertThat(during.sameMembership(ConfigFiles.topology(moving, "http://a:1", FLAGS))).isTrue();
    assertThat(during.sameMembership(after)).isFalse();

    String takenAway =
        "epoch 4\nhttp://a:1 zone=x next-zone=-\nhttp://b:1 zone=x next-zone=-\n"
            + "http://c:1 zone=y next-zone=-\nhttp://d:1 zone=y next-zone=-\n";
    Topology back = ConfigFiles.topology(takenAway, "http://a:1", FLAGS);
    assertThat(back.inTransition()).as("zones taken away: a transition").isTrue();
    for (int k = 0; k < 1000; k++) {
      byte[] key = ("k" + k).getBytes(java.nio.charset.StandardCharsets.UTF_8);
      assertThat(back.currentReplicas(key, 2)).containsExactly(after.currentReplicas(key, 2));
      assertThat(back.nextReplicas(key, 2)).containsExactly(before.currentReplicas(key, 2));
    }
  }

  @Test
  void theMembersFileReplicationTakesThePlaceOfTheFlags() {
    String members = "http://a:1\nhttp://b:1\nhttp://c:1\nhttp://d:1\nhttp://e:1\n";
    Topology flags = ConfigFiles.topology("epoch 2\n" + members, "http://a:1", FLAGS);
    assertThat(flags.currentReplication()).isEqualTo(new Replication(2, 3));
    assertThat(flags.inTransition()).isFalse();

    Topology set = ConfigFiles.topology("replication 1/2\n" + members, "http://a:1", FLAGS);
    assertThat(set.currentReplication()).isEqualTo(new Replication(1, 2));
    assertThat(set.nextReplication()).isEqualTo(new Replication(1, 2));

    Topology changing =
        ConfigFiles.topology(
            "epoch 3\nreplication 2/3\nnext-replication 3/5\n" + members, "http://a:1", FLAGS);
    assertThat(changing.currentReplication()).isEqualTo(new Replication(2, 3));
    assertThat(changing.nextReplication()).isEqualTo(new Replication(3, 5));
    assertThat(changing.readReplication()).isEqualTo(new Replication(2, 3));
    assertThat(changing.inTransition()).as("a change of the defaults is a transition").isTrue();
  }

  @Test
  void unsetFlagsMeanEveryMemberAndAMajority() {
    Topology t = ConfigFiles.topology("http://a:1\nhttp://b:1\nhttp://c:1\n", "http://a:1", UNSET);
    assertThat(t.currentReplication()).isEqualTo(new Replication(2, 3));
    assertThat(
            ConfigFiles.topology("http://a:1\n", "http://a:1", new Defaults(3, 0))
                .currentReplication())
        .as("an ack above from is capped by it")
        .isEqualTo(new Replication(1, 1));
  }
}
