package dev.dht.node.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Five node processes whose default replication widens from 2/3 to 3/5 while a writer and a reader
 * run with the defaults (no ack, no from), the way the operator drives it: the wider defaults are
 * the next ring's (joint writes), every node streams what it will hold, reads switch, the final
 * defaults, cleanup. Every key starts with two copies, as if the third replica had missed it: reads
 * at 3/5 before the new replicas are filled could meet only that one and the two new ones, and
 * answer 404 (one read in ten, when the defaults switch at once). Through the plan: no 404, no
 * older value, and every key ends with five copies.
 */
class ReplicationChangeProcessTest {
  private static final int KEYS = 300;
  private static final String[] FIVE = {"normal", "normal", "normal", "normal", "normal"};

  @TempDir Path root;

  @Test
  void widening2of3To3of5UnderLoadAnswersNo404AndEndsWithFiveCopies() throws Exception {
    try (Membership cluster = new Membership(root, 5)) {
      cluster.publish(1, "2/3", null, false, FIVE);
      String[] flags = cluster.flags("--repair-interval-s", "0", "--request-timeout-ms", "3000");
      for (int i = 0; i < 5; i++) {
        cluster.start(i, flags);
      }
      Map<String, Long> acked = new ConcurrentHashMap<>();
      for (int k = 0; k < KEYS; k++) {
        // at from=2: the first two of the key's three replicas (rendezvous ranks them), as if the
        // third had missed the write
        assertThat(cluster.node(k % 5).client().put("w-" + k, "0", 2, 2).status()).isEqualTo(201);
        acked.put("w-" + k, 0L);
      }
      int before = cluster.copies(0, 1, 2, 3, 4);
      assertThat(before).isEqualTo(2 * KEYS);

      OverwriteLoad load = new OverwriteLoad(cluster, acked, 5, null, null);
      load.start();
      long began = System.nanoTime();
      cluster.publish(2, "2/3", "3/5", false, FIVE);
      cluster.awaitEpoch(2, 0, 1, 2, 3, 4);
      cluster.stream(2, 0, 1, 2, 3, 4);
      cluster.publish(3, "2/3", "3/5", true, FIVE);
      cluster.awaitEpoch(3, 0, 1, 2, 3, 4);
      cluster.publish(4, "3/5", null, false, FIVE);
      cluster.awaitEpoch(4, 0, 1, 2, 3, 4);
      cluster.cleanup(4, 0, 1, 2, 3, 4);
      long tookMs = (System.nanoTime() - began) / 1_000_000;
      Thread.sleep(1000);
      load.stop();

      System.out.printf(
          "2/3 -> 3/5 took %d ms; copies %d -> %d; %s%n",
          tookMs, before, cluster.copies(0, 1, 2, 3, 4), load);
      assertThat(load.writes.get()).as("acknowledged writes").isPositive();
      assertThat(load.notFound.get()).as("reads of acknowledged keys that found nothing").isZero();
      assertThat(load.older.get()).as("reads older than an acknowledged write").isZero();
      assertThat(cluster.copies(0, 1, 2, 3, 4)).as("copies on 5 nodes").isEqualTo(5 * KEYS);
      for (Map.Entry<String, Long> e : acked.entrySet()) {
        DhtClient.Reply reply =
            cluster.node(Math.floorMod(e.getKey().hashCode(), 5)).client().get(e.getKey());
        assertThat(reply.status()).as(e.getKey()).isEqualTo(200);
        assertThat(Long.parseLong(reply.text()))
            .as(e.getKey())
            .isGreaterThanOrEqualTo(e.getValue());
      }
    }
  }
}
