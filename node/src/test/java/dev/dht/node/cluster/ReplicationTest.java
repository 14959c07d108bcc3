package dev.dht.node.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dht.node.cluster.Replication.Defaults;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ReplicationTest {
  @ParameterizedTest
  @CsvSource({"1,1,1", "2,2,2", "3,2,3", "4,3,4", "5,3,5"})
  void unconfiguredDefaultsAreAMajorityOfAllNodes(int n, int ack, int from) {
    assertThat(Replication.resolve(null, null, Defaults.UNCONFIGURED, n))
        .isEqualTo(new Replication(ack, from));
  }

  @Test
  void onlyFromGivenTakesAMajorityOfIt() {
    assertThat(Replication.resolve(null, "2", Defaults.UNCONFIGURED, 5))
        .isEqualTo(new Replication(2, 2));
    assertThat(Replication.resolve(null, "4", new Defaults(1, 5), 5))
        .isEqualTo(new Replication(3, 4));
  }

  @Test
  void onlyAckGivenKeepsTheDefaultFrom() {
    assertThat(Replication.resolve("1", null, Defaults.UNCONFIGURED, 3))
        .isEqualTo(new Replication(1, 3));
    assertThat(Replication.resolve("2", null, new Defaults(1, 2), 3))
        .isEqualTo(new Replication(2, 2));
  }

  @Test
  void configuredDefaultsApplyWhenNothingIsGiven() {
    assertThat(Replication.resolve(null, null, new Defaults(1, 2), 3))
        .isEqualTo(new Replication(1, 2));
    assertThat(Replication.resolve(null, null, new Defaults(0, 2), 3))
        .isEqualTo(new Replication(2, 2));
  }

  @ParameterizedTest
  @CsvSource({
    "0,3",
    "4,3",
    "2,4",
    "3,2",
    "-1,3",
    "x,3",
    "1,y",
    "'',3",
    "1.5,3",
    "99999999999,3",
    "\u0662,3",
    "2,\u0663",
    "\uff12,3",
    "+2,3"
  })
  void invalidValuesAreRejectedWithAReason(String ack, String from) {
    assertThatThrownBy(() -> Replication.resolve(ack, from, Defaults.UNCONFIGURED, 3))
        .isInstanceOf(Replication.InvalidException.class)
        .hasMessageMatching(".*(ack|from).*");
  }
}
