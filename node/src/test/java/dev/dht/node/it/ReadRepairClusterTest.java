package dev.dht.node.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.dht.contract.AdminStatus;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Read repair over real nodes: a replica that missed a write, a delete, or its whole disk gets the
 * newest version from the first quorum read that sees it behind, before that read answers. Local
 * copies are checked through each node's own range stream.
 */
class ReadRepairClusterTest {
  @TempDir static Path root;
  static LocalCluster cluster;

  @BeforeAll
  static void start() {
    // read repair alone: no hints, no scheduled repair
    cluster = LocalCluster.start(root, 3, "--hint-window-s", "0", "--repair-interval-s", "0");
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  /** The value node {@code node} holds itself for {@code key}; null if none (or a tombstone). */
  private static String local(int node, String key) {
    RawHttp.Response range =
        RawHttp.get(
            cluster.port(node),
            "/v0/entities?start=" + DhtClient.encode(key) + "&end=" + DhtClient.encode(key + "\0"));
    assertThat(range.status()).isEqualTo(200);
    List<byte[]> chunks = range.chunks();
    if (chunks.isEmpty()) {
      return null;
    }
    String entry = new String(chunks.getFirst(), StandardCharsets.UTF_8);
    return entry.substring(entry.indexOf('\n') + 1);
  }

  private static double blockingRepairs(int node) {
    return MetricsText.of(cluster.client(node)).value("dht_read_repairs_total", "blocking");
  }

  @Test
  void aReplicaThatMissedAnOverwriteGetsItFromTheNextQuorumRead() {
    assertThat(cluster.client(0).put("missed", "v1", 3, 3).status()).isEqualTo(201);
    cluster.stop(2);
    assertThat(cluster.client(0).put("missed", "v2", 2, 3).status()).isEqualTo(201);
    cluster.start(2);
    assertThat(local(2, "missed")).isEqualTo("v1");

    double before = blockingRepairs(1);
    assertThat(cluster.client(1).get("missed", 3, 3).text()).isEqualTo("v2");
    assertThat(local(2, "missed")).as("repaired before the answer").isEqualTo("v2");
    assertThat(blockingRepairs(1)).isEqualTo(before + 1);
    assertThat(cluster.client(2).get("missed", 1, 1).text()).isEqualTo("v2");
  }

  /**
   * The coordinator reads its own stale record and a peer's digest of a newer version: it fetches
   * that record, repairs itself, and answers the newer value.
   */
  @Test
  void aNewerVersionSeenOnlyAsADigestIsFetchedAndRepairsTheCoordinator() {
    assertThat(cluster.client(0).put("digest", "v1", 3, 3).status()).isEqualTo(201);
    cluster.stop(0);
    assertThat(cluster.client(1).put("digest", "v2", 2, 3).status()).isEqualTo(201);
    cluster.start(0);
    assertThat(local(0, "digest")).isEqualTo("v1");

    MetricsText before = MetricsText.of(cluster.client(0));
    assertThat(cluster.client(0).get("digest", 2, 3).text()).isEqualTo("v2");
    MetricsText after = MetricsText.of(cluster.client(0));
    assertThat(local(0, "digest")).as("repaired before the answer").isEqualTo("v2");
    assertThat(after.value("dht_read_digest_fetches_total", ""))
        .isEqualTo(before.value("dht_read_digest_fetches_total", "") + 1);
  }

  @Test
  void aReplicaThatMissedADeleteGetsTheTombstone() {
    assertThat(cluster.client(0).put("deleted", "v", 3, 3).status()).isEqualTo(201);
    cluster.stop(1);
    assertThat(cluster.client(0).delete("deleted", 2, 3).status()).isEqualTo(202);
    cluster.start(1);
    assertThat(local(1, "deleted")).isEqualTo("v");
    assertThat(cluster.client(2).get("deleted", 3, 3).status()).isEqualTo(404);
    assertThat(local(1, "deleted")).isNull();
  }

  @Test
  void aReplicaThatLostItsDiskHoldsEveryKeyOnceItServesReads() {
    for (int k = 0; k < 20; k++) {
      assertThat(cluster.client(k % 3).put("wiped-" + k, "v" + k, 3, 3).status()).isEqualTo(201);
    }
    cluster.stop(0);
    cluster.wipe(0);
    cluster.start(0);
    await("the wiped replica pulled from every peer")
        .atMost(Duration.ofSeconds(30))
        .until(() ->
            AdminStatus.fromJson(
                    cluster
                        .client(0)
                        .send("GET", "/v0/admin/status", HttpRequest.BodyPublishers.noBody())
                        .text())
                .bootstrap()
                .serving());
    for (int k = 0; k < 20; k++) {
      assertThat(local(0, "wiped-" + k)).isEqualTo("v" + k);
      assertThat(cluster.client(1).get("wiped-" + k, 3, 3).text()).isEqualTo("v" + k);
    }
  }

  /**
   * A writer keeps overwriting one key with increasing numbers at 2/3 while readers on the other
   * nodes read it at 2/3: no reader ever sees the number go down.
   */
  @Test
  void quorumReadsAreMonotonicUnderAConcurrentWriter() throws Exception {
    assertThat(cluster.client(0).put("counter", "0", 3, 3).status()).isEqualTo(201);
    AtomicBoolean stop = new AtomicBoolean();
    AtomicInteger written = new AtomicInteger();
    Thread writer =
        Thread.ofPlatform()
            .start(() -> {
              for (int i = 1; !stop.get(); i++) {
                if (cluster.client(0).put("counter", Integer.toString(i), 2, 3).status() == 201) {
                  written.set(i);
                }
              }
            });
    AtomicReference<String> violation = new AtomicReference<>();
    Thread reader =
        Thread.ofPlatform()
            .start(() -> {
              int seen = 0;
              for (int r = 0; !stop.get(); r++) {
                DhtClient.Reply reply = cluster.client(1 + r % 2).get("counter", 2, 3);
                if (reply.status() != 200) {
                  violation.compareAndSet(null, "read answered " + reply);
                  return;
                }
                int value = Integer.parseInt(reply.text());
                if (value < seen) {
                  violation.compareAndSet(null, "read " + value + " after " + seen);
                }
                seen = Math.max(seen, value);
              }
            });
    Thread.sleep(3000);
    stop.set(true);
    writer.join(10_000);
    reader.join(10_000);
    assertThat(written.get()).isPositive();
    assertThat(violation.get()).isNull();
  }
}
