package dev.dht.node.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.node.it.DhtClient.Reply;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Nodes stopping, restarting and losing their disk (3 nodes, ack=2/from=3 unless stated): 504 when
 * a quorum is out of reach, the newest version winning after a replica missed writes, data
 * surviving a restart of everything, and a wiped node holding nothing. Every test starts with all
 * nodes running; keys are unique per test.
 */
class NodeFailureTest {
  @TempDir static Path root;
  static LocalCluster cluster;

  @BeforeAll
  static void startCluster() {
    cluster = LocalCluster.start(root, 3);
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @BeforeEach
  void allNodesRunning() {
    cluster.startAll();
  }

  private static DhtClient node(int i) {
    return cluster.client(i);
  }

  @Test
  void twoOfThreeNodesDownIs504ForAck2() {
    assertThat(node(0).put("q", "before", 3, 3).status()).isEqualTo(201);
    cluster.stop(1);
    cluster.stop(2);
    // ack=1 still works: this node is one of every key's 3 replicas
    assertThat(node(0).get("q", 1, 3).text()).isEqualTo("before");

    for (Reply reply :
        new Reply[] {
          node(0).put("q", "after", 2, 3),
          node(0).get("q", 2, 3),
          node(0).delete("q", 2, 3),
          node(0).put("q", "after"), // the default for 3 nodes is ack=2 from=3
          node(0).get("q"),
          node(0).delete("q")
        }) {
      assertThat(reply.status()).as("%s", reply).isEqualTo(504);
      assertThat(reply.text()).isNotBlank();
    }
    assertThat(node(0).put("q1", "one", 1, 3).status()).isEqualTo(201);
    assertThat(node(0).get("q1", 1, 3).text()).isEqualTo("one");
    assertThat(
            node(0)
                .send("GET", "/metrics", java.net.http.HttpRequest.BodyPublishers.noBody())
                .text())
        .containsPattern("dht_requests\\w*_count\\{[^}]*operation=\"put\"[^}]*status=\"504\"");
  }

  @Test
  void oneNodeDownStillServesTheDefaultQuorum() {
    cluster.stop(2);
    for (int i = 0; i < 10; i++) {
      assertThat(node(i % 2).put("one-down-" + i, "v" + i).status()).isEqualTo(201);
    }
    for (int i = 0; i < 10; i++) {
      assertThat(node((i + 1) % 2).get("one-down-" + i).text()).isEqualTo("v" + i);
    }
  }

  /**
   * Course-style: node {@code missing} is down for {@code write}, comes back, then another node
   * goes down so the read quorum must include the stale replica; the newest version still wins. The
   * read is coordinated by the stale node itself.
   */
  private static Reply afterMissedWrite(int missing, Runnable before, Runnable write, String key) {
    before.run();
    cluster.stop(missing);
    write.run();
    cluster.start(missing);
    int other = (missing + 1) % 3;
    cluster.stop(other);
    return node(missing).get(key, 2, 3);
  }

  @Test
  void aMissedWriteIsReadBack() {
    Reply read =
        afterMissedWrite(
            0,
            () -> {},
            () -> assertThat(node(1).put("missed-write", "v", 2, 3).status()).isEqualTo(201),
            "missed-write");
    assertThat(read.status()).isEqualTo(200);
    assertThat(read.text()).isEqualTo("v");
  }

  @Test
  void aMissedDeleteIs404() {
    Reply read =
        afterMissedWrite(
            1,
            () -> assertThat(node(0).put("missed-delete", "v", 3, 3).status()).isEqualTo(201),
            () -> assertThat(node(2).delete("missed-delete", 2, 3).status()).isEqualTo(202),
            "missed-delete");
    assertThat(read.status()).isEqualTo(404);
  }

  @Test
  void aMissedOverwriteReadsTheNewValue() {
    Reply read =
        afterMissedWrite(
            2,
            () -> assertThat(node(0).put("missed-overwrite", "old", 3, 3).status()).isEqualTo(201),
            () -> assertThat(node(1).put("missed-overwrite", "new", 2, 3).status()).isEqualTo(201),
            "missed-overwrite");
    assertThat(read.status()).isEqualTo(200);
    assertThat(read.text()).isEqualTo("new");
  }

  @Test
  void aMissedRecreateAfterDeleteReadsTheValue() {
    Reply read =
        afterMissedWrite(
            0,
            () -> {
              assertThat(node(1).put("recreate", "first", 3, 3).status()).isEqualTo(201);
              assertThat(node(2).delete("recreate", 3, 3).status()).isEqualTo(202);
            },
            () -> assertThat(node(1).put("recreate", "second", 2, 3).status()).isEqualTo(201),
            "recreate");
    assertThat(read.status()).isEqualTo(200);
    assertThat(read.text()).isEqualTo("second");
  }

  @Test
  void aMissedDeleteOfARecreatedKeyIs404() {
    Reply read =
        afterMissedWrite(
            2,
            () -> {
              assertThat(node(0).put("recreate-delete", "first", 3, 3).status()).isEqualTo(201);
              assertThat(node(0).delete("recreate-delete", 3, 3).status()).isEqualTo(202);
              assertThat(node(1).put("recreate-delete", "second", 3, 3).status()).isEqualTo(201);
            },
            () -> assertThat(node(0).delete("recreate-delete", 2, 3).status()).isEqualTo(202),
            "recreate-delete");
    assertThat(read.status()).isEqualTo(404);
  }

  @Test
  void dataSurvivesARestartOfAllNodes() {
    Map<String, String> expected = new HashMap<>();
    for (int i = 0; i < 30; i++) {
      String key = "durable-" + i;
      String value = i % 7 == 0 ? "" : "value-" + i;
      assertThat(node(i % 3).put(key, value, 2, 3).status()).isEqualTo(201);
      expected.put(key, value);
    }
    for (int i = 0; i < 30; i += 5) {
      assertThat(node(i % 3).put("durable-" + i, "overwritten-" + i, 2, 3).status()).isEqualTo(201);
      expected.put("durable-" + i, "overwritten-" + i);
    }
    for (int i = 1; i < 30; i += 4) {
      assertThat(node(i % 3).delete("durable-" + i, 2, 3).status()).isEqualTo(202);
      expected.put("durable-" + i, null);
    }

    cluster.stopAll();
    cluster.startAll();

    expected.forEach((key, value) -> {
      Reply read = node(key.hashCode() & 1).get(key, 2, 3);
      if (value == null) {
        assertThat(read.status()).as(key).isEqualTo(404);
      } else {
        assertThat(read.status()).as(key).isEqualTo(200);
        assertThat(read.text()).as(key).isEqualTo(value);
      }
    });
  }

  @Test
  void aWipedNodeHasNoneOfItsDataAndAnIntactOneHasAll() {
    int keys = 20;
    for (int i = 0; i < keys; i++) {
      assertThat(node(0).put("wipe-" + i, "v" + i, 3, 3).status()).isEqualTo(201);
    }
    cluster.stopAll();

    cluster.wipe(0);
    cluster.startAlone(0);
    assertThat(cluster.localKeys(0, "wipe-", "wipe.")).isEmpty();
    for (int i = 0; i < keys; i++) {
      assertThat(node(0).get("wipe-" + i, 1, 1).status()).isEqualTo(404);
    }
    cluster.stop(0);

    cluster.startAlone(1);
    assertThat(cluster.localKeys(1, "wipe-", "wipe.")).hasSize(keys);
    assertThat(node(1).get("wipe-0", 1, 1).text()).isEqualTo("v0");
    cluster.stop(1);

    // back in the cluster, the wiped node is an empty replica: quorum reads still find the data
    cluster.startAll();
    assertThat(node(0).get("wipe-3", 2, 3).text()).isEqualTo("v3");
  }
}
