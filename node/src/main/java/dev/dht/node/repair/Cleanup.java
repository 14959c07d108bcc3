package dev.dht.node.repair;

import dev.dht.contract.AdminStatus;
import dev.dht.node.cluster.ClusterState;
import dev.dht.node.cluster.Topology;
import dev.dht.node.storage.RangeCursor;
import dev.dht.node.storage.Record;
import dev.dht.node.storage.Storage;
import dev.dht.node.storage.WriteWatch;
import io.vertx.core.WorkerExecutor;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * After a membership change has been switched on every node, drops what this node no longer owns
 * (it is not among the key's {@code default-from} replicas), so each key ends with exactly {@code
 * from} copies. Refused during a transition. A record written since the scan read it is kept.
 */
public final class Cleanup {
  private static final Logger log = LoggerFactory.getLogger(Cleanup.class);
  private static final int BATCH = 4096;

  /** The keys written during a cleanup that it remembers; past them, it reads each key again. */
  private static final long WATCHED_BYTES = 16L << 20;

  private final ClusterState cluster;
  private final Storage storage;
  private final WorkerExecutor worker;
  private final AtomicBoolean running = new AtomicBoolean();
  private volatile long removed;
  private volatile long epoch = -1;
  private volatile long lastCompletedMillis;

  public Cleanup(ClusterState cluster, Storage storage, WorkerExecutor worker) {
    this.cluster = cluster;
    this.storage = storage;
    this.worker = worker;
  }

  /** Starts a cleanup; false if one runs or the membership is in a transition. */
  public boolean start() {
    Topology topology = cluster.topology();
    if (topology.inTransition() || !running.compareAndSet(false, true)) {
      return false;
    }
    int from = topology.currentReplication().from();
    long began = System.currentTimeMillis();
    boolean ownsEverything = topology.ownsEverythingNow(from); // nothing to scan for
    worker
        .executeBlocking(() -> ownsEverything ? 0L : run(topology, from), false)
        .onComplete(done -> {
          if (done.succeeded()) {
            removed += done.result();
            epoch = topology.epoch();
            lastCompletedMillis = System.currentTimeMillis();
            log.info(
                "cleaned up for epoch {} in {} ms: {} keys no longer owned removed",
                epoch,
                lastCompletedMillis - began,
                done.result());
          } else {
            log.warn("cleanup failed: {}", done.cause().toString());
          }
          running.set(false);
        });
    return true;
  }

  private long run(Topology topology, int from) {
    long count = 0;
    try (WriteWatch since = storage.watchWrites(WATCHED_BYTES); // before the scan reads
        RangeCursor cursor = storage.scan(new byte[0])) {
      for (List<RangeCursor.Entry> batch = cursor.next(BATCH, 4 << 20);
          !batch.isEmpty();
          batch = cursor.next(BATCH, 4 << 20)) {
        List<byte[]> keys = new ArrayList<>();
        List<Record> records = new ArrayList<>();
        for (RangeCursor.Entry e : batch) {
          if (!owns(topology.currentReplicas(e.key(), from), topology.selfIndex())) {
            keys.add(e.key());
            records.add(e.record());
          }
        }
        if (!keys.isEmpty()) {
          count += storage.removeIfUnchanged(keys, records, since);
        }
      }
    }
    return count;
  }

  private static boolean owns(int[] replicas, int self) {
    for (int r : replicas) {
      if (r == self) {
        return true;
      }
    }
    return false;
  }

  /** This clean-up as the admin status shows it. */
  public AdminStatus.CleanupRun view() {
    return new AdminStatus.CleanupRun(
        running.get() ? AdminStatus.RUNNING : AdminStatus.IDLE,
        epoch,
        removed,
        lastCompletedMillis);
  }
}
