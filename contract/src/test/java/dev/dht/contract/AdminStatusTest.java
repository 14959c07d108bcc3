package dev.dht.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The node's admin status as the node writes it and the operator reads it. */
class AdminStatusTest {
  static final AdminStatus STATUS =
      new AdminStatus(
          "http://demo-0.demo-peers:8080",
          3,
          true,
          "next",
          List.of(
              new AdminStatus.Member("http://demo-0.demo-peers:8080", "normal"),
              new AdminStatus.Member("http://demo-3.demo-peers:8080", "joining")),
          2,
          3,
          new AdminStatus.Run(
              "idle", 4, 1, 10, 20, 30, null, null, 2, 2, 1.0, 5, 6, 7, 8, 40, -1, -1),
          new AdminStatus.Run(
              "running",
              1,
              0,
              10,
              0,
              0,
              "timeout",
              "http://demo-1.demo-peers:8080",
              1,
              3,
              0.33,
              0,
              100,
              4096,
              0,
              0,
              3,
              2),
          new AdminStatus.CleanupRun("idle", 2, 17, 50),
          new AdminStatus.Hints(3, Map.of("http://demo-1.demo-peers:8080", 3L), 300),
          new AdminStatus.StorageSize(1000, 65536),
          List.of("ab12cd34", "ef56ab78"),
          new AdminStatus.Settings(
              0,
              2,
              4,
              4096,
              1000,
              1024,
              1048576,
              500,
              10_800_000,
              1L << 30,
              8 << 20,
              3_600_000,
              16 << 20,
              86_400_000,
              true),
          new AdminStatus.Bootstrap("bootstrapping", 1_700_000_000_000L),
          new AdminStatus.Tombstones(1_700_000_100_000L, 1_699_900_000_000L),
          new AdminStatus.Clock(true, 120_000, 2, 2, "clock fenced: 120000 ms ahead"),
          7L,
          "required",
          List.of(AdminStatus.ZONES, "from-the-future"));

  @Test
  void whatTheNodeWritesTheOperatorReads() {
    assertThat(AdminStatus.fromJson(STATUS.toJson())).isEqualTo(STATUS);
    assertThat(STATUS.stream().running()).isTrue();
    assertThat(STATUS.repair().running()).isFalse();
    assertThat(STATUS.supports(AdminStatus.ZONES)).isTrue();
  }

  @Test
  void fieldsOfANewerNodeAreIgnoredAndMissingOnesAreZeroOrNull() {
    var read = AdminStatus.fromJson("{\"epoch\": 5, \"defaultAck\": 2, \"comingSoon\": [1, 2]}");
    assertThat(read.epoch()).isEqualTo(5);
    assertThat(read.defaultAck()).isEqualTo(2);
    assertThat(read.stream()).isNull();
    assertThat(read.secretFingerprints()).isNull();
    assertThat(read.bootstrap()).as("a node of an older version").isNull();
    assertThat(read.clock()).as("a node of an older version").isNull();
    assertThat(read.usersRevision()).as("a node of an older version").isNull();
    assertThat(read.authentication()).as("a node of an older version").isNull();
    assertThat(read.supports(AdminStatus.ZONES)).as("a node of an older version").isFalse();
  }

  @Test
  void somethingElseIsRefusedWithItsReason() {
    assertThatThrownBy(() -> AdminStatus.fromJson("<html>"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("not an admin status");
  }
}
