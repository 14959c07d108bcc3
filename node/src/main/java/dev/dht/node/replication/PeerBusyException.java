package dev.dht.node.replication;

/** An op to a peer failed fast: too much queued for that peer, or its deadline passed. */
public final class PeerBusyException extends RuntimeException {
  PeerBusyException(String message) {
    super(message, null, false, false);
  }
}
