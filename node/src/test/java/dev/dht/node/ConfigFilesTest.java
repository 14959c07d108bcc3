package dev.dht.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dht.node.cluster.Replication.Defaults;
import org.junit.jupiter.api.Test;

class ConfigFilesTest {
  private static final Defaults FLAGS = new Defaults(2, 3);

  @Test
  void membersAreOneUrlALineWithoutBlanksAndComments() {
    String file = "# members\nhttp://a:1\n\n  http://b:2  \r\n#http://c:3\nhttp://d:4";
    assertThat(ConfigFiles.members(file)).containsExactly("http://a:1", "http://b:2", "http://d:4");
    assertThat(ConfigFiles.members("")).isEmpty();
  }

  @Test
  void settingsOverrideTheFlagsKeyByKey() {
    assertThat(ConfigFiles.defaults("default-ack=1\ndefault-from=2\n", FLAGS))
        .isEqualTo(new Defaults(1, 2));
    assertThat(ConfigFiles.defaults("default-ack = 1", FLAGS)).isEqualTo(new Defaults(1, 3));
    assertThat(ConfigFiles.defaults("default-from: 5\n", FLAGS)).isEqualTo(new Defaults(2, 5));
    assertThat(ConfigFiles.defaults("# nothing set\nother=1\n", FLAGS)).isEqualTo(FLAGS);
    assertThat(ConfigFiles.defaults("default-ack=\n", FLAGS)).isEqualTo(FLAGS);
  }

  @Test
  void zeroMeansUnconfigured() {
    assertThat(ConfigFiles.defaults("default-ack=0\ndefault-from=0", FLAGS))
        .isEqualTo(Defaults.UNCONFIGURED);
    assertThat(ConfigFiles.defaults("default-ack=3", new Defaults(0, 0)))
        .isEqualTo(new Defaults(3, 0));
  }

  @Test
  void rejectsNonNumbersNegativesAndAckAboveFrom() {
    for (String bad :
        new String[] {
          "default-ack=two", "default-from=-1", "default-ack=-1", "default-ack=4\ndefault-from=3"
        }) {
      assertThatThrownBy(() -> ConfigFiles.defaults(bad, FLAGS))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class);
    }
    assertThatThrownBy(() -> ConfigFiles.defaults("default-ack=3", new Defaults(1, 2)))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
