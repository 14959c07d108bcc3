package dev.dht.node.replication;

import dev.dht.node.cluster.ClusterState;
import dev.dht.node.cluster.Topology;
import dev.dht.node.loop.DelayedActions;
import dev.dht.node.metrics.NodeMetrics;
import dev.dht.node.storage.Record;
import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.util.concurrent.TimeUnit;

/**
 * Runs one client request against the key's replicas: sends to all {@code from} of them in
 * parallel, answers once {@code ack} succeeded, and fails with {@link QuorumFailedException} when
 * that became impossible or the request deadline passed. Stragglers finish in the background. One
 * instance per event loop; all callbacks of a request run on that loop.
 */
public final class Coordinator {
  /** How late a deadline may fire: the resolution of the shared deadline timer. */
  private static final long TIMER_RESOLUTION_MS = 5;

  private final ClusterState cluster;
  private final LocalReplica local;
  private final PeerClient peers;
  private final NodeMetrics metrics;
  private final long requestTimeoutMs;
  private final DelayedActions deadlines;

  public Coordinator(
      Vertx vertx,
      ClusterState cluster,
      LocalReplica local,
      PeerClient peers,
      NodeMetrics metrics,
      long requestTimeoutMs) {
    this.cluster = cluster;
    this.local = local;
    this.peers = peers;
    this.metrics = metrics;
    this.requestTimeoutMs = requestTimeoutMs;
    this.deadlines =
        new DelayedActions(vertx, requestTimeoutMs, TIMER_RESOLUTION_MS, System::nanoTime);
  }

  /** The newest version among {@code ack} replicas; null when none has the key. */
  public Future<Record> read(Topology topology, byte[] key, Replication r) {
    return fanOut(topology, key, ReplicaOp.read(key), r);
  }

  /** Stores {@code record} (stamped once, by the caller) on the key's replicas. */
  public Future<Record> write(Topology topology, byte[] key, Record record, Replication r) {
    return fanOut(topology, key, ReplicaOp.write(key, record), r);
  }

  private Future<Record> fanOut(Topology topology, byte[] key, ReplicaOp op, Replication r) {
    Call call = new Call(topology, op, r);
    for (int replica : topology.replicas(key, r.from())) {
      call.send(replica);
    }
    return call.result.future();
  }

  public ClusterState cluster() {
    return cluster;
  }

  /** One request in flight: its quorum, its deadline and its result. */
  private final class Call {
    final Topology topology;
    final ReplicaOp op;
    final Replication replication;
    final Quorum quorum;
    final Promise<Record> result = Promise.promise();
    final DelayedActions.Scheduled deadline;
    final long deadlineNanos;

    Call(Topology topology, ReplicaOp op, Replication replication) {
      this.topology = topology;
      this.op = op;
      this.replication = replication;
      this.quorum = new Quorum(replication.ack(), replication.from());
      this.deadline = deadlines.schedule(this::expire);
      this.deadlineNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(requestTimeoutMs);
    }

    void send(int replica) {
      if (topology.isSelf(replica)) {
        local.apply(op, deadlineNanos).onComplete(this::answered);
      } else {
        long start = System.nanoTime();
        peers
            .apply(topology.member(replica), op, deadlineNanos)
            .onComplete(answer -> {
              metrics.hop(answer.succeeded(), System.nanoTime() - start);
              answered(answer);
            });
      }
    }

    private void answered(AsyncResult<Record> answer) {
      Quorum.Outcome outcome =
          answer.succeeded() ? quorum.success(answer.result()) : quorum.failure();
      if (outcome == Quorum.Outcome.REACHED) {
        deadline.cancel();
        result.complete(quorum.newest());
      } else if (outcome == Quorum.Outcome.FAILED) {
        deadline.cancel();
        result.fail(new QuorumFailedException(replication, "too many replica failures"));
      }
    }

    private void expire() {
      if (quorum.expire()) {
        deadline.cancel();
        result.fail(
            new QuorumFailedException(replication, "deadline of " + requestTimeoutMs + " ms"));
      }
    }
  }
}
