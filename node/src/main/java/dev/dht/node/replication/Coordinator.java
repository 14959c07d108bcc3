package dev.dht.node.replication;

import dev.dht.node.cluster.ClusterState;
import dev.dht.node.cluster.Topology;
import dev.dht.node.metrics.NodeMetrics;
import dev.dht.node.storage.Record;
import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;

/**
 * Runs one client request against the key's replicas and answers once {@code ack} succeeded, or
 * fails with {@link QuorumFailedException} when that became impossible or the request deadline
 * passed. Writes go to all {@code from} replicas at once. Reads ask only {@code ack} of them, this
 * node first when it is one, and bring in another replica for each failure, and all the rest if the
 * answers are still missing halfway to the deadline (a hung replica): any {@code ack} replicas
 * intersect every acknowledged write of a quorum, and asking fewer saves a third of the work of a
 * 2/3 read. Stragglers finish in the background. One instance per event loop; all callbacks of a
 * request run on that loop.
 */
public final class Coordinator {
  /** How late a deadline or a hedge may fire: the resolution of their shared timers. */
  private static final long TIMER_RESOLUTION_MS = 5;

  private final ClusterState cluster;
  private final LocalReplica local;
  private final PeerClient peers;
  private final NodeMetrics metrics;
  private final long requestTimeoutMs;
  private final DelayedActions deadlines;
  private final DelayedActions hedges;

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
    this.hedges =
        new DelayedActions(vertx, requestTimeoutMs / 2, TIMER_RESOLUTION_MS, System::nanoTime);
  }

  /** The newest version among {@code ack} replicas; null when none has the key. */
  public Future<Record> read(Topology topology, byte[] key, Replication r) {
    Call call =
        new Call(
            topology,
            selfFirst(topology, topology.replicas(key, r.from())),
            ReplicaOp.read(key),
            r);
    call.send(r.ack());
    if (!call.quorum.decided() && call.sent < call.replicas.length) {
      call.hedge = hedges.schedule(call::sendRest);
    }
    return call.result.future();
  }

  /** Stores {@code record} (stamped once, by the caller) on the key's replicas. */
  public Future<Record> write(Topology topology, byte[] key, Record record, Replication r) {
    Call call =
        new Call(topology, topology.replicas(key, r.from()), ReplicaOp.write(key, record), r);
    call.send(r.from());
    return call.result.future();
  }

  public ClusterState cluster() {
    return cluster;
  }

  /** {@code replicas} with this node moved to the front if it is among them. */
  static int[] selfFirst(Topology topology, int[] replicas) {
    for (int i = 1; i < replicas.length; i++) {
      if (topology.isSelf(replicas[i])) {
        int self = replicas[i];
        System.arraycopy(replicas, 0, replicas, 1, i);
        replicas[0] = self;
        break;
      }
    }
    return replicas;
  }

  /** One request in flight: its replicas in the order they are asked, and how many were asked. */
  private final class Call {
    final Topology topology;
    final int[] replicas;
    final ReplicaOp op;
    final Replication replication;
    final Quorum quorum;
    final Promise<Record> result = Promise.promise();
    final DelayedActions.Scheduled deadline;
    DelayedActions.Scheduled hedge;
    int sent;

    Call(Topology topology, int[] replicas, ReplicaOp op, Replication replication) {
      this.topology = topology;
      this.replicas = replicas;
      this.op = op;
      this.replication = replication;
      this.quorum = new Quorum(replication.ack(), replication.from());
      this.deadline = deadlines.schedule(this::expire);
    }

    void send(int count) {
      for (int i = 0; i < count && sent < replicas.length; i++) {
        int replica = replicas[sent++];
        if (topology.isSelf(replica)) {
          local.apply(op).onComplete(this::answered);
        } else {
          long start = System.nanoTime();
          peers
              .apply(topology.member(replica), op)
              .onComplete(answer -> {
                metrics.hop(answer.succeeded(), System.nanoTime() - start);
                answered(answer);
              });
        }
      }
    }

    void sendRest() {
      if (!quorum.decided()) {
        send(replicas.length);
      }
    }

    private void answered(AsyncResult<Record> answer) {
      Quorum.Outcome outcome;
      if (answer.succeeded()) {
        outcome = quorum.success(answer.result());
      } else {
        outcome = quorum.failure();
        if (!quorum.decided()) {
          send(1); // a read asked fewer than from: the next replica takes the failed one's place
        }
      }
      if (outcome == Quorum.Outcome.REACHED) {
        done();
        result.complete(quorum.newest());
      } else if (outcome == Quorum.Outcome.FAILED) {
        done();
        result.fail(new QuorumFailedException(replication, "too many replica failures"));
      }
    }

    private void expire() {
      if (quorum.expire()) {
        done();
        result.fail(
            new QuorumFailedException(replication, "deadline of " + requestTimeoutMs + " ms"));
      }
    }

    private void done() {
      deadline.cancel();
      if (hedge != null) {
        hedge.cancel();
      }
    }
  }
}
