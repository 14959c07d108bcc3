package dev.dht.node.repair;

import dev.dht.node.cluster.Topology;

/**
 * The keys two replicas should both hold: those whose {@code from} replicas (rendezvous placement,
 * the cluster's default replication) include both. Rendezvous hashing has no token ranges, so the
 * pair's shared key space is this predicate, and repair compares only keys in it. Pure.
 */
public record SharedKeys(Topology topology, int self, int peer, int from) {
  /** The keys {@code self} shares with {@code peerUrl}; fails if the peer is not a member. */
  public static SharedKeys of(Topology topology, String peerUrl, int from) {
    int peer = topology.members().indexOf(Topology.normalize(peerUrl));
    if (peer < 0 || peer == topology.selfIndex()) {
      throw new IllegalArgumentException(peerUrl + " is not another member of this cluster");
    }
    if (from < 2 || from > topology.size()) {
      throw new IllegalArgumentException("from must be in 2.." + topology.size() + ": " + from);
    }
    return new SharedKeys(topology, topology.selfIndex(), peer, from);
  }

  public boolean contains(byte[] key) {
    boolean hasSelf = false;
    boolean hasPeer = false;
    for (int replica : topology.replicas(key, from)) {
      hasSelf |= replica == self;
      hasPeer |= replica == peer;
    }
    return hasSelf && hasPeer;
  }
}
