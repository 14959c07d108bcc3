package dev.dht.node.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Node processes grown from 3 to 5 and shrunk back to 3 at from=3 while a writer and a reader run
 * at 2/3, the way the operator drives it, each epoch observed by every node before the next is
 * published: members joining or leaving (joint writes), the nodes that gain keys stream them, reads
 * switch to the next ring, the final membership, and the nodes drop what they no longer own. No
 * acknowledged write is lost, no read of an acknowledged key returns 404 or an older value, and
 * each key ends with exactly 3 copies, counted through every node's own range reads.
 */
class ElasticProcessTest {
  private static final int KEYS = 300;
  private static final int FROM = 3;

  @TempDir Path root;

  private Membership cluster;
  private boolean readNext;

  @Test
  void threeToFiveToThreeUnderLoadLosesNothingAndEndsWithExactlyFromCopies() throws Exception {
    cluster = new Membership(root, 5);
    publish(1, "normal", "normal", "normal", null, null);
    String[] flags =
        cluster.flags(
            "--default-from", "3", "--repair-interval-s", "0", "--request-timeout-ms", "3000");
    try {
      for (int i = 0; i < 3; i++) {
        cluster.start(i, flags);
      }
      Map<String, Long> acked = new ConcurrentHashMap<>();
      for (int k = 0; k < KEYS; k++) {
        assertThat(cluster.node(k % 3).client().put("e-" + k, "0", 3, 3).status()).isEqualTo(201);
        acked.put("e-" + k, 0L);
      }
      OverwriteLoad load = new OverwriteLoad(cluster, acked, 3, 2, 3);
      load.start();

      long began = System.nanoTime();
      cluster.start(3, flags); // not listed yet: they wait, and nobody sends them anything
      cluster.start(4, flags);
      publish(2, "normal", "normal", "normal", "joining", "joining");
      cluster.awaitEpoch(2, 0, 1, 2, 3, 4);
      cluster.stream(2, 0, 1, 2, 3, 4);
      readNext = true;
      publish(3, "normal", "normal", "normal", "joining", "joining");
      cluster.awaitEpoch(3, 0, 1, 2, 3, 4);
      readNext = false;
      publish(4, "normal", "normal", "normal", "normal", "normal");
      cluster.awaitEpoch(4, 0, 1, 2, 3, 4);
      cluster.cleanup(4, 0, 1, 2, 3, 4);
      System.out.printf("3 -> 5 took %d ms%n", (System.nanoTime() - began) / 1_000_000);
      assertThat(cluster.copies(0, 1, 2, 3, 4)).as("copies on 5 nodes").isEqualTo(FROM * KEYS);

      began = System.nanoTime();
      publish(5, "normal", "normal", "normal", "leaving", "leaving");
      cluster.awaitEpoch(5, 0, 1, 2, 3, 4);
      cluster.stream(5, 0, 1, 2);
      readNext = true;
      publish(6, "normal", "normal", "normal", "leaving", "leaving");
      cluster.awaitEpoch(6, 0, 1, 2, 3, 4);
      readNext = false;
      publish(7, "normal", "normal", "normal", null, null);
      cluster.awaitEpoch(7, 0, 1, 2);
      cluster.node(3).close();
      cluster.node(4).close();
      cluster.cleanup(7, 0, 1, 2);
      System.out.printf("5 -> 3 took %d ms%n", (System.nanoTime() - began) / 1_000_000);
      Thread.sleep(1000);
      load.stop();

      System.out.println(load);
      assertThat(load.writes.get()).as("acknowledged writes").isPositive();
      assertThat(load.notFound.get()).as("reads of acknowledged keys that found nothing").isZero();
      assertThat(load.older.get()).as("reads older than an acknowledged write").isZero();
      for (Map.Entry<String, Long> e : acked.entrySet()) {
        DhtClient.Reply reply = cluster.node(0).client().get(e.getKey(), 3, 3);
        assertThat(reply.status()).as(e.getKey()).isEqualTo(200);
        assertThat(Long.parseLong(reply.text()))
            .as(e.getKey())
            .isGreaterThanOrEqualTo(e.getValue());
      }
      assertThat(cluster.copies(0, 1, 2)).as("copies on 3 nodes").isEqualTo(FROM * KEYS);
    } finally {
      cluster.close();
    }
  }

  private void publish(long epoch, String... states) throws Exception {
    cluster.publish(epoch, readNext, states);
  }
}
