package dev.dht.node.replication;

import dev.dht.node.hints.Hint;
import dev.dht.node.hints.HintStore;
import dev.dht.node.storage.Record;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Replays hints to their targets, oldest first: every second it looks for targets with hints, and
 * replays each one's in batches, paced to {@code bytesPerSecond}, until none is left or the target
 * fails (it is tried again the next second, so a target that comes back gets its hints within about
 * a second). A hint is deleted once its target answered it: stored, or kept out by a newer version.
 * Runs on one event loop; storage work on {@code worker}.
 */
public final class HintReplayer {
  private static final long PERIOD_MS = 1000;
  private static final int BATCH_HINTS = 256;
  private static final int BATCH_BYTES = 1 << 20;

  private final Vertx vertx;
  private final HintStore store;
  private final WorkerExecutor worker;
  private final PeerClient peers;
  private final long bytesPerSecond;
  private final long timeoutMs;
  private final Set<String> replaying = new HashSet<>();
  private long timer = -1;

  public HintReplayer(
      Vertx vertx,
      HintStore store,
      WorkerExecutor worker,
      PeerClient peers,
      long bytesPerSecond,
      long timeoutMs) {
    this.vertx = vertx;
    this.store = store;
    this.worker = worker;
    this.peers = peers;
    this.bytesPerSecond = bytesPerSecond;
    this.timeoutMs = timeoutMs;
  }

  /** Starts the periodic replay; call on the event loop that will run it. */
  public void start() {
    timer = vertx.setPeriodic(PERIOD_MS, t -> tick());
  }

  public void stop() {
    vertx.cancelTimer(timer);
  }

  private void tick() {
    for (String target : store.pendingByTarget().keySet()) {
      if (replaying.add(target)) {
        replay(target);
      }
    }
  }

  private void replay(String target) {
    long start = System.nanoTime();
    worker
        .executeBlocking(() -> store.oldest(target, BATCH_HINTS, BATCH_BYTES), false)
        .onComplete(read -> {
          if (read.failed() || read.result().isEmpty()) {
            replaying.remove(target);
            return;
          }
          List<Hint> hints = read.result();
          long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
          List<Future<Record>> sent = new ArrayList<>(hints.size());
          for (Hint h : hints) {
            sent.add(peers.apply(target, ReplicaOp.write(h.key(), h.record()), deadline));
          }
          Future.join(sent).onComplete(all -> answered(target, hints, sent, start));
        });
  }

  private void answered(String target, List<Hint> hints, List<Future<Record>> sent, long start) {
    List<Hint> done = new ArrayList<>(hints.size());
    long bytes = 0;
    for (int i = 0; i < hints.size(); i++) {
      if (sent.get(i).succeeded()) {
        done.add(hints.get(i));
        bytes += hints.get(i).bytes();
      }
    }
    long paceMs = bytes * 1000 / bytesPerSecond - (System.nanoTime() - start) / 1_000_000;
    worker
        .executeBlocking(
            () -> {
              store.replayed(done);
              return null;
            },
            false)
        .onComplete(deleted -> {
          if (deleted.failed() || done.size() < hints.size()) {
            replaying.remove(target); // the target failed: again at the next tick
          } else {
            vertx.setTimer(Math.max(1, paceMs), t -> replay(target));
          }
        });
  }
}
