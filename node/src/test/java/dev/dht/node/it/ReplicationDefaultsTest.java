package dev.dht.node.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * API.md §2 defaults, observed through which requests can still succeed while nodes are down: only
 * {@code from} given → ack = floor(from/2)+1; only {@code ack} given → the default from; the
 * defaults set by flags; and those of the members file, re-read while the node runs.
 */
class ReplicationDefaultsTest {
  private static final int KEYS = 30;

  @TempDir Path root;
  LocalCluster cluster;

  @AfterEach
  void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  /** The status of a PUT of each test key through node 0 with the given query parameters. */
  private List<Integer> putStatuses(String prefix, Integer ack, Integer from) {
    List<Integer> statuses = new ArrayList<>();
    for (int i = 0; i < KEYS; i++) {
      statuses.add(cluster.client(0).put(prefix + i, "v", ack, from).status());
    }
    return statuses;
  }

  @Test
  void onlyFromGivenMeansAMajorityAck() {
    cluster = LocalCluster.start(root, 3);
    cluster.stop(2);

    // from=2 alone must behave as ack=2: 504 exactly for the keys that have node 2 as a replica
    List<Integer> fromOnly = putStatuses("k", null, 2);
    assertThat(fromOnly).isEqualTo(putStatuses("k", 2, 2)).contains(201, 504);
    assertThat(putStatuses("k", 1, 2)).containsOnly(201);

    cluster.stop(1);
    assertThat(putStatuses("k", null, 3)).containsOnly(504); // ack=2
    assertThat(putStatuses("k", null, 1)).isEqualTo(putStatuses("k", 1, 1)).contains(201, 504);
  }

  @Test
  void onlyAckGivenUsesTheDefaultFromOfTheClusterSize() {
    cluster = LocalCluster.start(root, 3);
    assertThat(putStatuses("k", 3, null)).containsOnly(201);
    cluster.stop(2);
    // from=3: two of every key's replicas are up; with from=2 some keys would have only one
    assertThat(putStatuses("k", 2, null)).containsOnly(201);
    assertThat(putStatuses("k", 3, null)).containsOnly(504);
    assertThat(putStatuses("k", 4, null)).containsOnly(400);
  }

  @Test
  void defaultsFromFlagsApplyToRequestsWithoutParameters() {
    cluster = LocalCluster.start(root, 3, "--default-ack", "1", "--default-from", "2");
    cluster.stop(1);
    cluster.stop(2);

    List<Integer> defaults = putStatuses("k", null, null);
    assertThat(defaults).isEqualTo(putStatuses("k", 1, 2)).contains(201, 504);
    // ack alone: from is still the configured 2
    assertThat(putStatuses("k", 1, null)).isEqualTo(defaults);
    // from alone: ack is the majority of that from, not the configured ack
    assertThat(putStatuses("k", null, 3)).containsOnly(504);
    assertThat(putStatuses("k", 1, 3)).containsOnly(201);
  }

  @Test
  void theMembersFilesReplicationTakesThePlaceOfTheFlagsWhileTheNodeRuns() throws Exception {
    try (Membership members = new Membership(root, 3)) {
      members.publish(1, "2/3", null, false, "normal", "normal", "normal");
      String[] flags = members.flags("--default-ack", "1");
      for (int i = 0; i < 3; i++) {
        members.start(i, flags);
      }
      members.awaitServing(0); // it decided it is a new cluster: else it waits for its peers
      members.node(1).close();
      members.node(2).close();
      DhtClient client = members.node(0).client();
      assertThat(client.put("s", "v").status()).as("the file's ack=2").isEqualTo(504);

      members.publish(2, "1/3", null, false, "normal", "normal", "normal");
      members.awaitEpoch(2, 0);
      assertThat(client.put("s", "v").status()).isEqualTo(201);
      assertThat(client.get("s").text()).isEqualTo("v");
      assertThat(client.put("s", "v", 2, 3).status())
          .as("a request's own parameters win over the file")
          .isEqualTo(504);
    }
  }
}
