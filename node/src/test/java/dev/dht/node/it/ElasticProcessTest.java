package dev.dht.node.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.dht.node.replication.InternalApi;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpRequest.BodyPublishers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
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

  private final List<String> urls = new ArrayList<>();
  private final List<NodeProcess> nodes = new ArrayList<>();
  private Path membersFile;
  private boolean readNext;

  @Test
  void threeToFiveToThreeUnderLoadLosesNothingAndEndsWithExactlyFromCopies() throws Exception {
    List<Integer> ports = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      ports.add(Ports.free());
      urls.add("http://127.0.0.1:" + ports.get(i));
    }
    membersFile = root.resolve("members");
    publish(1, "normal", "normal", "normal", null, null);
    String[] secret = LocalCluster.secretFlags(root, NodeProcess.CLUSTER_SECRET);
    String[] flags = {
      secret[0],
      secret[1],
      "--cluster-file",
      membersFile.toString(),
      "--default-from",
      "3",
      "--repair-interval-s",
      "0",
      "--request-timeout-ms",
      "3000"
    };
    try {
      for (int i = 0; i < 5; i++) {
        nodes.add(null);
      }
      for (int i = 0; i < 3; i++) {
        start(i, ports.get(i), flags);
      }
      Map<String, Long> acked = new ConcurrentHashMap<>();
      for (int k = 0; k < KEYS; k++) {
        assertThat(nodes.get(k % 3).client().put("e-" + k, "0", 3, 3).status()).isEqualTo(201);
        acked.put("e-" + k, 0L);
      }
      Load load = new Load(acked);
      load.start();

      long began = System.nanoTime();
      start(3, ports.get(3), flags); // not listed yet: they wait, and nobody sends them anything
      start(4, ports.get(4), flags);
      publish(2, "normal", "normal", "normal", "joining", "joining");
      awaitEpoch(2, 0, 1, 2, 3, 4);
      stream(2, 0, 1, 2, 3, 4);
      readNext = true;
      publish(3, "normal", "normal", "normal", "joining", "joining");
      awaitEpoch(3, 0, 1, 2, 3, 4);
      readNext = false;
      publish(4, "normal", "normal", "normal", "normal", "normal");
      awaitEpoch(4, 0, 1, 2, 3, 4);
      cleanup(4, 0, 1, 2, 3, 4);
      System.out.printf("3 -> 5 took %d ms%n", (System.nanoTime() - began) / 1_000_000);
      assertThat(copies(0, 1, 2, 3, 4)).as("copies on 5 nodes").isEqualTo(FROM * KEYS);

      began = System.nanoTime();
      publish(5, "normal", "normal", "normal", "leaving", "leaving");
      awaitEpoch(5, 0, 1, 2, 3, 4);
      stream(5, 0, 1, 2);
      readNext = true;
      publish(6, "normal", "normal", "normal", "leaving", "leaving");
      awaitEpoch(6, 0, 1, 2, 3, 4);
      readNext = false;
      publish(7, "normal", "normal", "normal", null, null);
      awaitEpoch(7, 0, 1, 2);
      nodes.get(3).close();
      nodes.get(4).close();
      cleanup(7, 0, 1, 2);
      System.out.printf("5 -> 3 took %d ms%n", (System.nanoTime() - began) / 1_000_000);
      Thread.sleep(1000);
      load.stop();

      System.out.printf(
          "writes %d (failed %d), reads %d (404 %d, older %d, failed %d)%n",
          load.writes.get(),
          load.writeFailures.get(),
          load.reads.get(),
          load.notFound.get(),
          load.older.get(),
          load.readFailures.get());
      assertThat(load.writes.get()).as("acknowledged writes").isPositive();
      assertThat(load.notFound.get()).as("reads of acknowledged keys that found nothing").isZero();
      assertThat(load.older.get()).as("reads older than an acknowledged write").isZero();
      for (Map.Entry<String, Long> e : acked.entrySet()) {
        DhtClient.Reply reply = nodes.get(0).client().get(e.getKey(), 3, 3);
        assertThat(reply.status()).as(e.getKey()).isEqualTo(200);
        assertThat(Long.parseLong(reply.text()))
            .as(e.getKey())
            .isGreaterThanOrEqualTo(e.getValue());
      }
      assertThat(copies(0, 1, 2)).as("copies on 3 nodes").isEqualTo(FROM * KEYS);
    } finally {
      nodes.stream().filter(n -> n != null).forEach(NodeProcess::close);
    }
  }

  /** A writer (overwrites with increasing versions) and a reader, both at 2/3 via nodes 0-2. */
  private final class Load {
    final Map<String, Long> acked;
    final AtomicBoolean running = new AtomicBoolean(true);
    final AtomicLong writes = new AtomicLong();
    final AtomicLong writeFailures = new AtomicLong();
    final AtomicLong reads = new AtomicLong();
    final AtomicLong notFound = new AtomicLong();
    final AtomicLong older = new AtomicLong();
    final AtomicLong readFailures = new AtomicLong();
    final List<Thread> threads = new ArrayList<>();

    Load(Map<String, Long> acked) {
      this.acked = acked;
    }

    void start() {
      threads.add(Thread.ofPlatform().start(this::write));
      threads.add(Thread.ofPlatform().start(this::read));
    }

    void stop() throws InterruptedException {
      running.set(false);
      for (Thread t : threads) {
        t.join(30_000);
      }
    }

    private void write() {
      AtomicInteger turn = new AtomicInteger();
      for (long version = 1; running.get(); version++) {
        String key = "e-" + ThreadLocalRandom.current().nextInt(KEYS);
        try {
          int status =
              nodes
                  .get(turn.getAndIncrement() % 3)
                  .client()
                  .put(key, Long.toString(version), 2, 3)
                  .status();
          if (status == 201) {
            acked.merge(key, version, Math::max);
            writes.incrementAndGet();
          } else {
            if (writeFailures.incrementAndGet() <= 5) {
              System.out.println("write failed: " + status);
            }
          }
        } catch (RuntimeException e) {
          writeFailures.incrementAndGet();
        }
      }
    }

    private void read() {
      int turn = 0;
      while (running.get()) {
        String key = "e-" + ThreadLocalRandom.current().nextInt(KEYS);
        long atLeast = acked.get(key);
        try {
          DhtClient.Reply reply = nodes.get(turn++ % 3).client().get(key, 2, 3);
          reads.incrementAndGet();
          if (reply.status() == 404) {
            notFound.incrementAndGet();
          } else if (reply.status() != 200) {
            readFailures.incrementAndGet();
          } else if (Long.parseLong(reply.text()) < atLeast) {
            older.incrementAndGet();
          }
        } catch (RuntimeException e) {
          readFailures.incrementAndGet();
        }
      }
    }
  }

  private void start(int i, int port, String[] flags) {
    nodes.set(
        i, NodeProcess.start(root.resolve("node-" + i), port, List.of(urls.get(i)), "128m", flags));
  }

  /** Writes the membership file: the epoch, then each member's state (null: not a member). */
  private void publish(long epoch, String... states) throws Exception {
    StringBuilder out =
        new StringBuilder("epoch " + epoch + "\n" + (readNext ? "read-from next\n" : ""));
    for (int i = 0; i < states.length; i++) {
      if (states[i] != null) {
        out.append(urls.get(i))
            .append(states[i].equals("normal") ? "" : " " + states[i])
            .append('\n');
      }
    }
    Path next = membersFile.resolveSibling("members.next");
    Files.writeString(next, out);
    Files.move(next, membersFile, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
  }

  private JsonObject status(int i) {
    return new JsonObject(
        nodes.get(i).client().send("GET", "/v0/admin/status", BodyPublishers.noBody()).text());
  }

  private void awaitEpoch(long epoch, int... members) {
    for (int i : members) {
      await("node " + i + " at epoch " + epoch)
          .atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofMillis(200))
          .until(() -> status(i).getLong("epoch") == epoch);
    }
  }

  private void stream(long epoch, int... members) {
    admin("stream", members);
    for (int i : members) {
      await("node " + i + " streamed for epoch " + epoch)
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(200))
          .until(() -> status(i).getJsonObject("stream").getLong("completedEpoch") == epoch);
    }
  }

  private void cleanup(long epoch, int... members) {
    admin("cleanup", members);
    for (int i : members) {
      await("node " + i + " cleaned up for epoch " + epoch)
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(200))
          .until(() -> status(i).getJsonObject("cleanup").getLong("completedEpoch") == epoch);
    }
  }

  private void admin(String action, int... members) {
    for (int i : members) {
      DhtClient.Reply reply =
          nodes
              .get(i)
              .client()
              .send(
                  "POST",
                  "/v0/admin/" + action,
                  BodyPublishers.noBody(),
                  Map.of(InternalApi.SECRET_HEADER, NodeProcess.CLUSTER_SECRET));
      assertThat(reply.status()).as("%s on node %d: %s", action, i, reply).isEqualTo(202);
    }
  }

  private int copies(int... members) {
    int copies = 0;
    for (int i : members) {
      copies += nodes.get(i).entries().size();
    }
    return copies;
  }
}
