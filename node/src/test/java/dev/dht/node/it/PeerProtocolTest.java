package dev.dht.node.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.node.cluster.HybridClock;
import dev.dht.node.it.DhtClient.Reply;
import dev.dht.node.replication.BatchCodec;
import dev.dht.node.replication.InternalApi;
import dev.dht.node.replication.ReplicaOp;
import dev.dht.node.storage.Record;
import io.vertx.core.buffer.Buffer;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.http.HttpRequest.BodyPublishers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The replica side of the internal API against what a broken or hostile peer sends: timestamps from
 * a clock too far ahead, work past its deadline, and clients that would starve replication.
 */
class PeerProtocolTest {
  private static final String SECRET = "peer-protocol-secret";

  @TempDir Path root;

  private static Reply batch(LocalCluster cluster, int node, List<ReplicaOp> ops, String deadline) {
    Map<String, String> headers = new HashMap<>(Map.of(InternalApi.SECRET_HEADER, SECRET));
    if (deadline != null) {
      headers.put(InternalApi.DEADLINE_HEADER, deadline);
    }
    return cluster
        .client(node)
        .send(
            "POST",
            InternalApi.BATCH_PATH,
            BodyPublishers.ofByteArray(BatchCodec.encodeOps(ops).getBytes()),
            headers);
  }

  private static ReplicaOp write(String key, long timestamp, String value) {
    return ReplicaOp.write(
        key.getBytes(StandardCharsets.UTF_8),
        Record.value(timestamp, value.getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void writesStampedBeyondTheMaxClockOffsetAreRefusedAndDoNotMoveTheClock() {
    String[] secret = LocalCluster.secretFlags(root, SECRET);
    try (LocalCluster cluster =
        LocalCluster.start(root, 1, secret[0], secret[1], "--max-clock-offset-ms", "500")) {
      long now = System.currentTimeMillis();
      long ahead = new HybridClock(() -> now + 10_000, 9, 500).next();
      long slightlyAhead0 = new HybridClock(() -> now + 100, 9, 500).next();
      Reply mixed =
          batch(
              cluster,
              0,
              List.of(
                  write("future", ahead, "from the future"), write("fine", slightlyAhead0, "ok")),
              null);
      assertThat(mixed.status()).isEqualTo(200);
      List<BatchCodec.Result> results =
          BatchCodec.decodeResults(io.vertx.core.buffer.Buffer.buffer(mixed.body()), 2);
      assertThat(results.get(0).failed()).as("the write from the future").isTrue();
      assertThat(results.get(1).failed()).as("the other op of the batch").isFalse();
      assertThat(cluster.client(0).get("future").status()).isEqualTo(404);
      assertThat(cluster.client(0).get("fine").text()).isEqualTo("ok");
      assertThat(MetricsText.of(cluster.client(0)).value("dht_clock_offset_refused_total", ""))
          .isEqualTo(1);

      long slightlyAhead = new HybridClock(() -> now + 200, 9, 500).next();
      assertThat(batch(cluster, 0, List.of(write("near", slightlyAhead, "ok")), null).status())
          .isEqualTo(200);
      assertThat(cluster.client(0).get("near").text()).isEqualTo("ok");

      // the refused timestamp did not drag the node's clock ahead: a client write now is stamped
      // now, so a peer's write stamped 300 ms later (within the offset) still wins over it
      assertThat(cluster.client(0).put("race", "client").status()).isEqualTo(201);
      long later = new HybridClock(() -> System.currentTimeMillis() + 300, 9, 500).next();
      assertThat(batch(cluster, 0, List.of(write("race", later, "peer")), null).status())
          .isEqualTo(200);
      assertThat(cluster.client(0).get("race").text()).isEqualTo("peer");
    }
  }

  @Test
  void workPastTheCoordinatorsDeadlineIsDropped() {
    try (LocalCluster cluster =
        LocalCluster.start(root, 1, LocalCluster.secretFlags(root, SECRET))) {
      long ts = new HybridClock(System::currentTimeMillis, 9, 500).next();
      Reply expired = batch(cluster, 0, List.of(write("late", ts, "too late")), "0");
      assertThat(expired.status()).isEqualTo(504);
      assertThat(expired.text()).contains("deadline");
      assertThat(cluster.client(0).get("late").status()).isEqualTo(404);
      assertThat(batch(cluster, 0, List.of(write("late", ts, "x")), "soon").status())
          .isEqualTo(400);
      assertThat(batch(cluster, 0, List.of(write("late", ts, "in time")), "1000").status())
          .isEqualTo(200);
      assertThat(cluster.client(0).get("late").text()).isEqualTo("in time");
    }
  }

  private static Reply rawBatch(LocalCluster cluster, Buffer body) {
    return cluster
        .client(0)
        .send(
            "POST",
            InternalApi.BATCH_PATH,
            BodyPublishers.ofByteArray(body.getBytes()),
            Map.of(InternalApi.SECRET_HEADER, SECRET));
  }

  /**
   * A batch that cannot be decoded in full is refused whole, with the reason: its valid first op is
   * not applied either.
   */
  @Test
  void aMalformedBatchIs400AndStoresNothing() {
    try (LocalCluster cluster =
        LocalCluster.start(root, 1, LocalCluster.secretFlags(root, SECRET))) {
      long ts = new HybridClock(System::currentTimeMillis, 9, 500).next();
      Buffer first = BatchCodec.encodeOps(List.of(write("first", ts, "v")));
      List<ReplicaOp> tooMany = new ArrayList<>();
      for (int i = 0; i <= BatchCodec.MAX_OPS_PER_BATCH; i++) {
        tooMany.add(write(i == 0 ? "first" : "many-" + i, ts, "v"));
      }
      Map<String, Buffer> malformed = new LinkedHashMap<>();
      malformed.put("key of 0 bytes", first.copy().appendByte((byte) 0).appendInt(0));
      malformed.put(
          "record of 2147483647 bytes",
          first
              .copy()
              .appendByte((byte) 1)
              .appendInt(1)
              .appendByte((byte) 'k')
              .appendInt(Integer.MAX_VALUE));
      malformed.put("truncated record", first.slice(0, first.length() - 1).copy());
      malformed.put("more than 1024 ops", BatchCodec.encodeOps(tooMany));
      malformed.forEach((reason, body) -> {
        Reply reply = rawBatch(cluster, body);
        assertThat(reply.status()).as(reason).isEqualTo(400);
        assertThat(reply.text()).as(reason).startsWith("malformed batch: ").contains(reason);
      });
      assertThat(cluster.client(0).get("first").status()).isEqualTo(404);
      assertThat(cluster.client(0).get("many-1").status()).isEqualTo(404);
      assertThat(rawBatch(cluster, first).status())
          .as("the node still takes batches")
          .isEqualTo(200);
      assertThat(cluster.client(0).get("first").text()).isEqualTo("v");
    }
  }

  /**
   * Node 0 admits one client request at a time, and that one is held (its third replica hangs).
   * Writes coordinated by node 1 still reach node 0's replica: peers have their own admission.
   */
  @Test
  void clientsWhoFillANodesAdmissionDoNotStarveReplication() throws Exception {
    try (ServerSocket hung = new ServerSocket(0, 100, InetAddress.getLoopbackAddress());
        LocalCluster cluster =
            LocalCluster.start(root, 2, LocalCluster.secretFlags(root, SECRET))) {
      String members =
          cluster.url(0) + "," + cluster.url(1) + ",http://127.0.0.1:" + hung.getLocalPort();
      cluster.stop(0);
      cluster.stop(1);
      cluster.start(0, "--cluster", members, "--max-inflight", "1", "--request-timeout-ms", "3000");
      cluster.start(1, "--cluster", members, "--request-timeout-ms", "3000");

      CompletableFuture<Reply> held =
          CompletableFuture.supplyAsync(() -> cluster.client(0).put("held", "v", 3, 3));
      org.awaitility.Awaitility.await()
          .atMost(java.time.Duration.ofSeconds(10))
          .until(() ->
              MetricsText.of(cluster.client(0)).value("dht_inflight_requests", "client") == 1);
      assertThat(cluster.client(0).put("refused", "v", 1, 1).status()).isEqualTo(503);
      for (int k = 0; k < 10; k++) {
        assertThat(cluster.client(1).put("replicated-" + k, "v", 2, 3).status())
            .as("write %d via node 1 needs node 0's replica", k)
            .isEqualTo(201);
      }
      assertThat(held.get(30, TimeUnit.SECONDS).status()).isEqualTo(504);
    }
  }
}
