package dev.dht.node.cluster;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Rendezvous (highest random weight) placement: every node scores every key, and a key's replicas
 * are the nodes with the highest scores. The replica list for a smaller {@code from} is therefore a
 * prefix of the list for a larger one, and a membership change only moves the keys whose top scores
 * involve the changed node.
 */
public final class Ring {
  private final long[] nodeSeeds;

  /**
   * @param nodeIds stable node identities (their URLs); order does not matter to placement
   */
  public Ring(List<String> nodeIds) {
    if (nodeIds.isEmpty()) {
      throw new IllegalArgumentException("a ring needs at least one node");
    }
    nodeSeeds = new long[nodeIds.size()];
    for (int i = 0; i < nodeSeeds.length; i++) {
      nodeSeeds[i] = mix(hash(nodeIds.get(i).getBytes(StandardCharsets.UTF_8)));
    }
  }

  public int size() {
    return nodeSeeds.length;
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
