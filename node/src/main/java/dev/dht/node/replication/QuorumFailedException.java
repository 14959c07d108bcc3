package dev.dht.node.replication;

/** Fewer than {@code ack} replicas succeeded in time; the client gets 504. */
public final class QuorumFailedException extends RuntimeException {
  /**
   * @param needed the answers the quorum needed ("ack=2 of from=3")
   * @param why why they did not come
   */
  public QuorumFailedException(String needed, String why) {
    super("fewer than " + needed + " replicas answered: " + why, null, false, false);
  }
}
