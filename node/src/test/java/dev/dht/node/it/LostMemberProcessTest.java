package dev.dht.node.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A member gone for good (killed, never restarted) removed from four node processes at from=3 while
 * a reader runs at 2/3: published as {@code lost}, nothing waits for it; the three others stream
 * its keys from the surviving replicas, and each key ends with three copies on them. With {@code
 * leaving} instead, their streams would wait for it forever.
 */
class LostMemberProcessTest {
  private static final int KEYS = 300;

  @TempDir Path root;

  @Test
  void aLostMemberIsRemovedAndItsKeysRestreamedFromTheSurvivors() throws Exception {
    try (Membership cluster = new Membership(root, 4)) {
      String n = "normal";
      cluster.publish(1, false, n, n, n, n);
      String[] flags = cluster.flags("--default-from", "3", "--repair-interval-s", "0");
      for (int i = 0; i < 4; i++) {
        cluster.start(i, flags);
      }
      Map<String, String> written = new HashMap<>();
      for (int k = 0; k < KEYS; k++) {
        assertThat(cluster.node(k % 4).client().put("l-" + k, "v" + k, 3, 3).status())
            .isEqualTo(201);
        written.put("l-" + k, "v" + k);
      }
      cluster.node(3).kill(); // its disk and machine are gone

      AtomicBoolean running = new AtomicBoolean(true);
      AtomicLong reads = new AtomicLong();
      AtomicLong bad = new AtomicLong();
      Thread reader =
          Thread.ofPlatform()
              .start(() -> {
                for (int turn = 0; running.get(); turn++) {
                  String key = "l-" + ThreadLocalRandom.current().nextInt(KEYS);
                  DhtClient.Reply reply = cluster.node(turn % 3).client().get(key, 2, 3);
                  reads.incrementAndGet();
                  if (reply.status() != 200 || !reply.text().equals(written.get(key))) {
                    bad.incrementAndGet();
                  }
                }
              });
      long began = System.nanoTime();
      cluster.publish(2, false, n, n, n, "lost");
      cluster.awaitEpoch(2, 0, 1, 2);
      cluster.stream(2, 0, 1, 2);
      cluster.publish(3, true, n, n, n, "lost");
      cluster.awaitEpoch(3, 0, 1, 2);
      cluster.publish(4, false, n, n, n);
      cluster.awaitEpoch(4, 0, 1, 2);
      cluster.cleanup(4, 0, 1, 2);
      long tookMs = (System.nanoTime() - began) / 1_000_000;
      running.set(false);
      reader.join(30_000);

      System.out.printf(
          "removing a lost member took %d ms; reads %d, bad %d%n", tookMs, reads.get(), bad.get());
      assertThat(bad.get()).as("reads that did not answer the written value").isZero();
      assertThat(cluster.copies(0, 1, 2)).as("copies on the three left").isEqualTo(3 * KEYS);
      for (var e : written.entrySet()) {
        assertThat(cluster.node(0).client().get(e.getKey(), 3, 3).text()).isEqualTo(e.getValue());
      }
    }
  }
}
