package dev.dht.node.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * API.md §2 "a write stores at most {@code from} copies": keys are written to a 3-node cluster with
 * from=1, 2, 3 and the default, then each node is started alone and its local entries are counted
 * with the range API. Each key must be on exactly {@code from} nodes.
 */
class ReplicaCountTest {
  private static final int KEYS = 30;

  @TempDir static Path root;
  static LocalCluster cluster;

  /** Per key prefix, how many nodes hold each key. */
  static final Map<String, Map<String, Integer>> copies = new HashMap<>();

  /** Per node, how many from=1 keys it holds. */
  static final int[] singleCopiesPerNode = new int[3];

  @BeforeAll
  static void writeThenCountPerNode() {
    cluster = LocalCluster.start(root, 3);
    for (int i = 0; i < KEYS; i++) {
      for (int from = 1; from <= 3; from++) {
        // ack = from: every copy is written before the answer, none still in flight at the stop
        String key = "from" + from + "/" + i;
        assertThat(cluster.client(i % 3).put(key, "v", from, from).status()).isEqualTo(201);
      }
      assertThat(cluster.client(i % 3).put("default/" + i, "v", 3, null).status()).isEqualTo(201);
      // the same key written with from=1, then from=2: the from=1 replica is one of the two
      assertThat(cluster.client(i % 3).put("prefix/" + i, "first", 1, 1).status()).isEqualTo(201);
      assertThat(cluster.client(i % 3).put("prefix/" + i, "second", 2, 2).status()).isEqualTo(201);
    }
    cluster.stopAll();

    for (int node = 0; node < 3; node++) {
      cluster.startAlone(node);
      for (String prefix : List.of("from1/", "from2/", "from3/", "default/", "prefix/")) {
        String end = prefix.substring(0, prefix.length() - 1) + (char) ('/' + 1);
        for (String key : cluster.localKeys(node, prefix, end)) {
          copies.computeIfAbsent(prefix, p -> new HashMap<>()).merge(key, 1, Integer::sum);
          if (prefix.equals("from1/")) {
            singleCopiesPerNode[node]++;
          }
        }
      }
      cluster.stop(node);
    }
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  private static void assertCopies(String prefix, int expected) {
    Map<String, Integer> byKey = copies.getOrDefault(prefix, Map.of());
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < KEYS; i++) {
      keys.add(prefix + i);
    }
    assertThat(byKey.keySet()).containsExactlyInAnyOrderElementsOf(keys);
    assertThat(byKey).allSatisfy((key, count) -> assertThat(count).as(key).isEqualTo(expected));
    assertThat(byKey.values().stream().mapToInt(Integer::intValue).sum())
        .isEqualTo(expected * KEYS);
  }

  @Test
  void from1StoresOneCopy() {
    assertCopies("from1/", 1);
  }

  @Test
  void from2StoresTwoCopies() {
    assertCopies("from2/", 2);
  }

  @Test
  void from3StoresThreeCopies() {
    assertCopies("from3/", 3);
  }

  @Test
  void theDefaultFromIsTheClusterSize() {
    assertCopies("default/", 3);
  }

  @Test
  void theReplicasForASmallerFromArePrefixOfTheLargerOnes() {
    assertCopies("prefix/", 2);
  }

  @Test
  void oneCopyKeysAreSpreadOverTheNodes() {
    // 30 keys on 3 nodes: a node with none would mean placement ignores the key
    assertThat(singleCopiesPerNode).doesNotContain(0);
  }
}
