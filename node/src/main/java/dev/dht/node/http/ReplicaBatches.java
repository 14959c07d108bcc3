package dev.dht.node.http;

import dev.dht.node.cluster.HybridClock;
import dev.dht.node.metrics.NodeMetrics;
import dev.dht.node.replication.BatchCodec;
import dev.dht.node.replication.LocalReplica;
import dev.dht.node.replication.ReplicaOp;
import dev.dht.node.storage.Record;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a peer's batch of ops on this node's replica, however it came (an HTTP batch or a frame):
 * nothing once the coordinator's deadline has passed, and each write stamped further ahead than the
 * maximum clock offset refused alone (that op fails; the others run). Used from one event loop.
 */
final class ReplicaBatches {
  private static final Logger log = LoggerFactory.getLogger(ReplicaBatches.class);

  private final LocalReplica local;
  private final HybridClock clock;
  private final NodeMetrics metrics;

  ReplicaBatches(LocalReplica local, HybridClock clock, NodeMetrics metrics) {
    this.local = local;
    this.clock = clock;
    this.metrics = metrics;
  }

  /** The results of {@code ops}, in their order; a {@link RefusedException} if none may run. */
  Future<List<BatchCodec.Result>> apply(List<ReplicaOp> ops, long deadlineNanos) {
    if (System.nanoTime() - deadlineNanos >= 0) {
      metrics.internalExpired();
      return Future.failedFuture(
          new RefusedException(504, "the coordinator's deadline passed before the batch ran"));
    }
    List<Future<Record>> answers = new ArrayList<>(ops.size());
    for (ReplicaOp op : ops) {
      if (op.isWrite() && !clock.observe(op.record().timestamp())) {
        answers.add(Future.failedFuture(aheadOfClock(op.record().timestamp())));
      } else if (op.digest()) {
        answers.add(local.apply(op, deadlineNanos).map(r -> r == null ? null : r.digest()));
      } else {
        answers.add(local.apply(op, deadlineNanos));
      }
    }
    return Future.join(answers)
        .transform(ignored -> {
          List<BatchCodec.Result> results = new ArrayList<>(answers.size());
          for (Future<Record> answer : answers) {
            results.add(
                answer.succeeded()
                    ? new BatchCodec.Result(answer.result(), false)
                    : BatchCodec.Result.FAILURE);
          }
          return Future.succeededFuture(results);
        });
  }

  /** A write stamped beyond the maximum clock offset: refused alone, logged, counted. */
  private RuntimeException aheadOfClock(long timestamp) {
    metrics.clockOffsetRefused();
    String reason =
        "a write is stamped "
            + clock.aheadOfWallMs(timestamp)
            + " ms ahead of this node's clock, more than the maximum clock offset of "
            + clock.maxOffsetMs()
            + " ms: check the coordinator's clock (NTP)";
    log.warn("refused: {}", reason);
    return new IllegalStateException(reason);
  }

  /** A batch this replica will not run, with the status and reason of the answer. */
  static final class RefusedException extends RuntimeException implements Failures.ClientFacing {
    final int status;

    RefusedException(int status, String reason) {
      super(reason, null, false, false);
      this.status = status;
    }
  }
}
