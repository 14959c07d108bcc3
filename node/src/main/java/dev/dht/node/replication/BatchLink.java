package dev.dht.node.replication;

import io.vertx.core.Future;
import java.util.List;

/** How a {@link PeerChannel} gets one batch of ops to its peer and their results back. */
interface BatchLink {
  /**
   * Sends {@code ops}, for which the peer has {@code remainingMs}; completes with one result per
   * op, or fails (the hop failed: refused, timed out, closed, or an answer past {@code
   * maxAnswerBytes}).
   */
  Future<List<BatchCodec.Result>> send(List<ReplicaOp> ops, long remainingMs, long maxAnswerBytes);
}
