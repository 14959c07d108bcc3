package dev.dht.node.replication;

import dev.dht.node.cluster.ClusterState;
import dev.dht.node.cluster.Topology;
import dev.dht.node.metrics.NodeMetrics;
import dev.dht.node.storage.Record;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;

/**
 * Runs one client request against the key's replicas: sends to all {@code from} of them in
 * parallel, answers once {@code ack} succeeded, and fails with {@link QuorumFailedException} when
 * that became impossible or the request deadline passed. Stragglers finish in the background. One
 * instance per event loop; all callbacks of a request run on that loop.
 */
public final class Coordinator {
  private final Vertx vertx;
  private final ClusterState cluster;
  private final LocalReplica local;
  private final PeerClient peers;
  private final NodeMetrics metrics;
  private final long requestTimeoutMs;

  public Coordinator(
      Vertx vertx,
      ClusterState cluster,
      LocalReplica local,
      PeerClient peers,
      NodeMetrics metrics,
      long requestTimeoutMs) {
    this.vertx = vertx;
    this.cluster = cluster;
    this.local = local;
    this.peers = peers;
    this.metrics = metrics;
    this.requestTimeoutMs = requestTimeoutMs;
  }

  /** The newest version among {@code ack} replicas; null when none has the key. */
  public Future<Record> read(Topology topology, byte[] key, Replication r) {
    return fanOut(topology, key, ReplicaOp.read(key), r);
  }

  /** Stores {@code record} (stamped once, by the caller) on the key's replicas. */
  public Future<Record> write(Topology topology, byte[] key, Record record, Replication r) {
    return fanOut(topology, key, ReplicaOp.write(key, record), r);
  }

  public ClusterState cluster() {
    return cluster;
  }

  private Future<Record> fanOut(Topology topology, byte[] key, ReplicaOp op, Replication r) {
    int[] replicas = topology.replicas(key, r.from());
    Quorum quorum = new Quorum(r.ack(), r.from());
    Promise<Record> result = Promise.promise();
    long deadline =
        vertx.setTimer(
            requestTimeoutMs,
            id -> {
              if (quorum.expire()) {
                result.fail(
                    new QuorumFailedException(r, "deadline of " + requestTimeoutMs + " ms"));
              }
            });
    for (int replica : replicas) {
      String member = topology.isSelf(replica) ? null : topology.member(replica);
      long start = System.nanoTime();
      (member == null ? local.apply(op) : peers.apply(member, op))
          .onComplete(answer -> {
            if (member != null) {
              metrics.hop(answer.succeeded(), System.nanoTime() - start);
            }
            Quorum.Outcome outcome =
                answer.succeeded() ? quorum.success(answer.result()) : quorum.failure();
            if (outcome == Quorum.Outcome.REACHED) {
              vertx.cancelTimer(deadline);
              result.complete(quorum.newest());
            } else if (outcome == Quorum.Outcome.FAILED) {
              vertx.cancelTimer(deadline);
              result.fail(new QuorumFailedException(r, "too many replica failures"));
            }
          });
    }
    return result.future();
  }
}
