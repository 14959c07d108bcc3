package dev.dht.node.cluster;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;

/**
 * Rendezvous (highest random weight) placement: every node scores every key, and a key's replicas
 * are the nodes with the highest scores. The replica list for a smaller {@code from} is therefore a
 * prefix of the list for a larger one, and a membership change only moves the keys whose top scores
 * involve the changed node.
 *
 * <p>With zones, the list goes round the zones: first the best node of each zone (the zones in the
 * order of their best nodes' scores), then the second best of each, and so on. So a key's first
 * {@code min(from, zones)} replicas are in distinct zones, and its copies are spread as evenly as
 * the zones allow. Within a zone the order is rendezvous: a node added to or removed from a zone
 * moves only the keys whose copies it gains or loses there. One zone (or none) is plain rendezvous.
 */
public final class Ring {
  private final long[] nodeSeeds;

  /** Each node's zone, 0 to {@code zones - 1}. */
  private final int[] zoneOf;

  private final int zones;

  /**
   * @param nodeIds stable node identities (their URLs); order does not matter to placement
   */
  public Ring(List<String> nodeIds) {
    this(nodeIds, Collections.nCopies(nodeIds.size(), null));
  }

  /**
   * @param nodeIds stable node identities (their URLs); order does not matter to placement
   * @param zones each node's zone, in the order of {@code nodeIds}; nodes without one (null) are a
   *     zone together
   */
  public Ring(List<String> nodeIds, List<String> zones) {
    if (nodeIds.isEmpty()) {
      throw new IllegalArgumentException("a ring needs at least one node");
    }
    if (zones.size() != nodeIds.size()) {
      throw new IllegalArgumentException(nodeIds.size() + " nodes, " + zones.size() + " zones");
    }
    nodeSeeds = new long[nodeIds.size()];
    zoneOf = new int[nodeIds.size()];
    var zoneNumbers = new HashMap<String, Integer>();
    for (int i = 0; i < nodeSeeds.length; i++) {
      nodeSeeds[i] = mix(hash(nodeIds.get(i).getBytes(StandardCharsets.UTF_8)));
      zoneOf[i] =
          zoneNumbers.computeIfAbsent(
              zones.get(i) == null ? "" : zones.get(i), // "" is no zone's name
              z -> zoneNumbers.size());
    }
    this.zones = zoneNumbers.size();
  }

  public int size() {
    return nodeSeeds.length;
  }

  /** How many zones the nodes are in (1 without zones). */
  public int zones() {
    return zones;
  }

  /** Indexes (into the node list) of the {@code from} replicas of {@code key}, best first. */
  public int[] replicas(byte[] key, int from) {
    if (from < 1 || from > nodeSeeds.length) {
      throw new IllegalArgumentException("from must be in 1.." + nodeSeeds.length + ": " + from);
    }
    long keyHash = hash(key);
    int n = nodeSeeds.length;
    long[] scores = new long[n];
    for (int i = 0; i < n; i++) {
      scores[i] = mix(keyHash ^ nodeSeeds[i]);
    }
    int[] chosen = new int[from];
    boolean[] taken = new boolean[n];
    if (zones == 1) {
      for (int rank = 0; rank < from; rank++) {
        int best = -1;
        for (int i = 0; i < n; i++) {
          if (!taken[i] && (best < 0 || beats(scores[i], i, scores[best], best))) {
            best = i;
          }
        }
        taken[best] = true;
        chosen[rank] = best;
      }
      return chosen;
    }
    // rounds: in each, the best remaining node of each zone not served yet in this round
    boolean[] served = new boolean[zones];
    int count = 0;
    while (count < from) {
      int best = -1;
      for (int i = 0; i < n; i++) {
        if (!taken[i]
            && !served[zoneOf[i]]
            && (best < 0 || beats(scores[i], i, scores[best], best))) {
          best = i;
        }
      }
      if (best < 0) { // every zone with nodes left took one: the next round
        Arrays.fill(served, false);
        continue;
      }
      taken[best] = true;
      served[zoneOf[best]] = true;
      chosen[count++] = best;
    }
    return chosen;
  }

  private boolean beats(long score, int node, long otherScore, int otherNode) {
    int byScore = Long.compareUnsigned(score, otherScore);
    return byScore > 0 || (byScore == 0 && nodeSeeds[node] < nodeSeeds[otherNode]);
  }

  /** FNV-1a, 64 bit: cheap for short keys; {@link #mix} spreads its bits. */
  public static long hash(byte[] bytes) {
    long h = 0xcbf29ce484222325L;
    for (byte b : bytes) {
      h ^= b & 0xff;
      h *= 0x100000001b3L;
    }
    return h;
  }

  /** The SplitMix64 finalizer: a bijective avalanche of all 64 bits. */
  public static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }
}
