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
