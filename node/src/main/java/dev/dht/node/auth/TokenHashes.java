package dev.dht.node.auth;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Map;

/**
 * The users by the SHA-256 of their token: an open-addressing table of the 32-byte hashes, so that
 * looking up the hash of a request's bearer token allocates nothing (no key object, no hex). The
 * slot is taken from the hash's own bits: SHA-256 spreads them evenly, and a client choosing its
 * tokens only chooses where a miss starts probing, in a table at most half full. Immutable once
 * built.
 */
final class TokenHashes {
  static final int HASH_BYTES = 32;
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  /** Four longs per slot: the hash. */
  private final long[] hashes;

  /** The user of each slot; null: an empty slot. */
  private final ClientUser[] users;

  private final int mask;

  /** A table of {@code byHash}: each key a SHA-256 (32 bytes). */
  TokenHashes(Map<byte[], ClientUser> byHash) {
    int slots = Integer.highestOneBit(Math.max(2, byHash.size()) * 2 - 1) << 1;
    this.hashes = new long[slots * 4];
    this.users = new ClientUser[slots];
    this.mask = slots - 1;
    byHash.forEach(this::add);
  }

  private void add(byte[] hash, ClientUser user) {
    if (hash.length != HASH_BYTES) {
      throw new IllegalArgumentException("a SHA-256 has 32 bytes, got " + hash.length);
    }
    int slot = slotOf(hash);
    while (users[slot] != null) {
      if (matches(slot, hash)) {
        throw new IllegalArgumentException("two users have the same token hash");
      }
      slot = (slot + 1) & mask;
    }
    for (int i = 0; i < 4; i++) {
      hashes[slot * 4 + i] = (long) LONGS.get(hash, i * 8);
    }
    users[slot] = user;
  }

  /** The user whose token hashes to {@code hash} (its first 32 bytes); null if none. */
  ClientUser find(byte[] hash) {
    int slot = slotOf(hash);
    while (users[slot] != null) {
      if (matches(slot, hash)) {
        return users[slot];
      }
      slot = (slot + 1) & mask;
    }
    return null;
  }

  private int slotOf(byte[] hash) {
    return (int) (long) LONGS.get(hash, 0) & mask;
  }

  private boolean matches(int slot, byte[] hash) {
    int at = slot * 4;
    return hashes[at] == (long) LONGS.get(hash, 0)
        && hashes[at + 1] == (long) LONGS.get(hash, 8)
        && hashes[at + 2] == (long) LONGS.get(hash, 16)
        && hashes[at + 3] == (long) LONGS.get(hash, 24);
  }
}
