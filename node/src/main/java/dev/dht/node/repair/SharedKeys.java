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
 *       replication stays (a change of members), only what the puller does not own yet, and from
 *       one owner only: the one that hands the key over to it (see {@link #handingOver}). When the
 *       replication changes, from every owner, and a replica that stays may also have to take what
 *       it missed (3/5 to 2/3: a write on the last three of five).
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
    if (!includes(owners, source)) {
      return false;
    }
    if (!stream) {
      return includes(owners, puller);
    }
    int[] next = topology.nextReplicas(key, pullerFrom);
    if (!includes(next, puller)) {
      return false;
    }
    if (!onlyNew) {
      return true;
    }
    if (includes(owners, puller)) {
      return false;
    }
    int handing = handingOver(owners, next, puller);
    return handing < 0 || topology.state(handing) == Topology.State.LOST || handing == source;
  }

  /**
   * The owner of a key that hands it over to {@code puller} when the replication stays: the owners
   * that will not own it (leaving its replicas) and the members that will (joining them) are as
   * many, and the i-th of one (by member index) hands over to the i-th of the other. Each copy of
   * the key then either stays where it is or moves to a replica of its own, so a write acknowledged
   * by {@code ack} replicas is still on {@code ack} replicas after the change, and a quorum of the
   * next ring meets one of them. -1 if {@code puller} is not joining the key's replicas, or the
   * rings hold different numbers of replicas (then every owner sends it). Pure.
   */
  static int handingOver(int[] owners, int[] next, int puller) {
    if (owners.length != next.length || includes(owners, puller) || !includes(next, puller)) {
      return -1;
    }
    int rank = 0; // among the joining ones
    for (int member : next) {
      if (member < puller && !includes(owners, member)) {
        rank++;
      }
    }
    int[] leaving = new int[owners.length];
    int count = 0;
    for (int member : owners) {
      if (!includes(next, member)) {
        leaving[count++] = member;
      }
    }
    java.util.Arrays.sort(leaving, 0, count);
    return leaving[rank];
  }

  /**
   * Whether the source hands nothing over to the puller: the replication stays, no member is lost,
   * and the source owns every key in the next ring, so it leaves no key's replicas. Then neither
   * side scans.
   */
  public boolean nothingHandedOver() {
    return stream
        && onlyNew
        && !topology.anyLost()
        && topology.ownsEverythingNext(source, pullerFrom);
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
