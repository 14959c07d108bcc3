package dev.dht.node.it;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A writer that overwrites random keys with increasing versions and a reader that checks them, each
 * through the first {@code coordinators} members in turn, at {@code ack}/{@code from} (null: the
 * defaults). {@code acked} holds each key's newest acknowledged version: a read of 404 or of an
 * older version is counted against the cluster.
 */
final class OverwriteLoad {
  final AtomicLong writes = new AtomicLong();
  final AtomicLong writeFailures = new AtomicLong();
  final AtomicLong reads = new AtomicLong();
  final AtomicLong notFound = new AtomicLong();
  final AtomicLong older = new AtomicLong();
  final AtomicLong readFailures = new AtomicLong();

  private final Membership cluster;
  private final Map<String, Long> acked;
  private final List<String> keys;
  private final int coordinators;
  private final Integer ack;
  private final Integer from;
  private final AtomicBoolean running = new AtomicBoolean(true);
  private final List<Thread> threads = new ArrayList<>();

  OverwriteLoad(
      Membership cluster, Map<String, Long> acked, int coordinators, Integer ack, Integer from) {
    this.cluster = cluster;
    this.acked = acked;
    this.keys = List.copyOf(acked.keySet());
    this.coordinators = coordinators;
    this.ack = ack;
    this.from = from;
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

  @Override
  public String toString() {
    return String.format(
        "writes %d (failed %d), reads %d (404 %d, older %d, failed %d)",
        writes.get(),
        writeFailures.get(),
        reads.get(),
        notFound.get(),
        older.get(),
        readFailures.get());
  }

  private String anyKey() {
    return keys.get(ThreadLocalRandom.current().nextInt(keys.size()));
  }

  private void write() {
    int turn = 0;
    for (long version = 1; running.get(); version++) {
      String key = anyKey();
      try {
        int status =
            cluster
                .node(turn++ % coordinators)
                .client()
                .put(key, Long.toString(version), ack, from)
                .status();
        if (status == 201) {
          acked.merge(key, version, Math::max);
          writes.incrementAndGet();
        } else if (writeFailures.incrementAndGet() <= 5) {
          System.out.println("write failed: " + status);
        }
      } catch (RuntimeException e) {
        writeFailures.incrementAndGet();
      }
    }
  }

  private void read() {
    int turn = 0;
    while (running.get()) {
      String key = anyKey();
      long atLeast = acked.get(key);
      try {
        DhtClient.Reply reply = cluster.node(turn++ % coordinators).client().get(key, ack, from);
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
