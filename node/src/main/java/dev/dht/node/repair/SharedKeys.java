package dev.dht.node.repair;

import dev.dht.node.cluster.Topology;

/**
 * The keys one replica (the puller) takes from another (the source) in a repair or a stream.
 * Rendezvous hashing has no token ranges, so a pair's key space is a predicate over the key's
 * replicas (the cluster's default replication {@code from}), evaluated alike on both sides:
 *
 * <ul>
 *   <li>repair: both are among the key's {@code from} replicas in the ring reads use;
 *   <li>stream (a transition, where both sides are at the same epoch): the puller is a replica in
 *       the next ring, with the next ring's default from ({@code pullerFrom}), and the source one
 *       in the current ring: what the puller will own, from those who own it now. When the
 *       replication stays (a change of members), only what the puller does not own yet: a write
 *       acknowledged by {@code ack} of {@code from} replicas misses at most {@code from - ack} of
 *       them, so a quorum of the next ring always meets a replica that holds it (one that had it,
 *       or one that pulled it from every owner). When the replication changes, a replica that stays
 *       may also have to take what it missed (3/5 to 2/3: a write on the last three of five).
 * </ul>
 *
 * Pure.
 */
public record SharedKeys(
    Topology topology,
    int puller,
    int source,
    int from,
    int pullerFrom,
    boolean stream,
    boolean onlyNew) {
  /** The keys this node pulls from {@code peerUrl}. */
  public static SharedKeys pulledFrom(Topology topology, String peerUrl, int from, boolean stream) {
    return of(topology, topology.selfIndex(), member(topology, peerUrl), from, stream);
  }

  /** The keys {@code askerUrl} pulls from this node. */
  public static SharedKeys pulledBy(Topology topology, String askerUrl, int from, boolean stream) {
    return of(topology, member(topology, askerUrl), topology.selfIndex(), from, stream);
  }

  private static SharedKeys of(
      Topology topology, int puller, int source, int from, boolean stream) {
    int least = stream ? 1 : 2; // one copy of a key is shared with no one, but it moves
    if (from < least || from > topology.size()) {
      throw new IllegalArgumentException(
          "from must be in " + least + ".." + topology.size() + ": " + from);
    }
    int pullerFrom = stream ? topology.nextReplication().from() : from;
    boolean onlyNew = stream && topology.replicationStays();
    return new SharedKeys(topology, puller, source, from, pullerFrom, stream, onlyNew);
  }

  private static int member(Topology topology, String url) {
    int member = topology.members().indexOf(Topology.normalize(url));
    if (member < 0 || member == topology.selfIndex()) {
      throw new IllegalArgumentException(url + " is not another member of this cluster");
    }
    return member;
  }

  public boolean contains(byte[] key) {
    int[] owners = topology.replicas(key, from);
    if (!stream) {
      return includes(owners, puller) && includes(owners, source);
    }
    return includes(owners, source)
        && !(onlyNew && includes(owners, puller))
        && includes(topology.nextReplicas(key, pullerFrom), puller);
  }

  /** Whether the puller owns {@code key} now: reads ask it for the key during the stream. */
  public boolean ownedNowByPuller(byte[] key) {
    return includes(topology.replicas(key, from), puller);
  }

  /**
   * Whether a stream can bring this node nothing: the replication stays and it owns every key now
   * (a member of a current ring where every member holds every key), so nothing is new to it.
   */
  public static boolean nothingToPull(Topology topology) {
    return topology.replicationStays()
        && topology.ownsEverythingNow(topology.currentReplication().from());
  }

  private static boolean includes(int[] replicas, int member) {
    for (int replica : replicas) {
      if (replica == member) {
        return true;
      }
    }
    return false;
  }
}
