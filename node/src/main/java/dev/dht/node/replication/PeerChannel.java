package dev.dht.node.replication;

import dev.dht.node.metrics.NodeMetrics;
import dev.dht.node.storage.Record;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The ops one event loop has for one peer: collected during a loop turn, sent as one batch (a
 * frame, or an HTTP request: {@link PeerLinks}) that carries the time left until the ops' deadline.
 * What is queued or in flight to the peer is bounded (ops and bytes): past the bound, and past an
 * op's deadline, ops fail at once instead of waiting, so a slow, hung or black-holed peer cannot
 * grow the heap. Used from its event loop only.
 */
final class PeerChannel {
  private static final int MAX_OPS_PER_BATCH = 256;

  /**
   * Batches in flight to the peer from this loop. At the limit, new ops gather until an answer
   * comes back and go out together: under load a batch carries more ops, and the peer and this node
   * parse fewer requests; when idle, an op still leaves in the loop turn it came.
   */
  private static final int MAX_BATCHES_IN_FLIGHT = 2;

  private record Pending(ReplicaOp op, long deadlineNanos, int bytes, Promise<Record> promise) {}

  private final PeerLinks links;
  private final Context loop;
  private final String member;
  private final PeerLimits limits;
  private final NodeMetrics metrics;
  private List<Pending> pending = new ArrayList<>();
  private int queuedOps; // pending or in flight
  private long queuedBytes;
  private int batchesInFlight;
  private boolean flushScheduled;

  PeerChannel(
      PeerLinks links, Context loop, String member, PeerLimits limits, NodeMetrics metrics) {
    this.links = links;
    this.loop = loop;
    this.member = member;
    this.limits = limits;
    this.metrics = metrics;
  }

  void close() {
    links.close();
  }

  Future<Record> submit(ReplicaOp op, long deadlineNanos) {
    int bytes =
        (int) InternalApi.opBytes(op.key().length, op.isWrite() ? op.record().encoded().length : 0);
    if (queuedOps >= limits.maxOps() || queuedBytes + bytes > limits.maxBytes()) {
      metrics.peerOpShed();
      return Future.failedFuture(
          new PeerBusyException(
              member
                  + " has "
                  + queuedOps
                  + " ops ("
                  + queuedBytes
                  + " bytes) queued or in flight"
                  + " from this event loop; failing fast"));
    }
    queuedOps++;
    queuedBytes += bytes;
    Promise<Record> promise = Promise.promise();
    pending.add(new Pending(op, deadlineNanos, bytes, promise));
    scheduleFlush();
    return promise.future();
  }

  /** A flush at the end of this loop turn, unless one is due or the batches in flight are many. */
  private void scheduleFlush() {
    if (!flushScheduled && batchesInFlight < MAX_BATCHES_IN_FLIGHT && !pending.isEmpty()) {
      flushScheduled = true;
      loop.runOnContext(v -> flush());
    }
  }

  /** Sends what is pending, in batches, as far as the batches in flight allow; the rest waits. */
  private void flush() {
    flushScheduled = false;
    long now = System.nanoTime();
    List<Pending> batch = new ArrayList<>();
    int bytes = 0;
    int next = 0;
    for (; next < pending.size(); next++) {
      Pending p = pending.get(next);
      if (p.deadlineNanos() - now <= 0) {
        metrics.peerOpShed();
        done(p, Future.failedFuture(new PeerBusyException("the deadline passed before sending")));
        continue;
      }
      if (!batch.isEmpty()
          && (batch.size() == MAX_OPS_PER_BATCH || bytes + p.bytes() > limits.maxBatchBytes())) {
        send(batch, now);
        batch = new ArrayList<>();
        bytes = 0;
        if (batchesInFlight >= MAX_BATCHES_IN_FLIGHT) {
          break;
        }
      }
      batch.add(p);
      bytes += p.bytes();
    }
    if (!batch.isEmpty()) {
      send(batch, now);
    }
    pending =
        next >= pending.size()
            ? new ArrayList<>()
            : new ArrayList<>(pending.subList(next, pending.size()));
  }

  private void send(List<Pending> batch, long now) {
    batchesInFlight++;
    List<ReplicaOp> ops = new ArrayList<>(batch.size());
    long deadline = now;
    long maxAnswer = 0;
    for (Pending p : batch) {
      ops.add(p.op());
      deadline = Math.max(deadline, p.deadlineNanos());
      maxAnswer += 1 + 4 + limits.maxRecordBytes(); // a write may answer with a newer version
    }
    long remainingMs = Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - now + 999_999));
    links
        .send(ops, remainingMs, maxAnswer)
        .onComplete(answers -> {
          batchesInFlight--;
          scheduleFlush();
          for (int i = 0; i < batch.size(); i++) {
            Pending p = batch.get(i);
            if (answers.failed()) {
              done(p, Future.failedFuture(answers.cause()));
            } else if (answers.result().get(i).failed()) {
              done(p, Future.failedFuture("the peer's replica failed or dropped the op"));
            } else {
              done(p, Future.succeededFuture(answers.result().get(i).record()));
            }
          }
        });
  }

  private void done(Pending p, Future<Record> result) {
    queuedOps--;
    queuedBytes -= p.bytes();
    p.promise().handle(result);
  }
}
