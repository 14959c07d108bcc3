package dev.dht.node.replication;

import dev.dht.node.cluster.Replication;

/** Fewer than {@code ack} replicas succeeded in time; the client gets 504. */
public final class QuorumFailedException extends RuntimeException {
  public QuorumFailedException(Replication r, String why) {
    super(
        "fewer than ack=" + r.ack() + " of from=" + r.from() + " replicas answered: " + why,
        null,
        false,
        false);
  }
}
