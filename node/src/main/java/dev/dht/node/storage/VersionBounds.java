package dev.dht.node.storage;

/**
 * Upper bounds of the stored versions, per hash slot of keys: every record stored for a key whose
 * hash falls into a slot has a timestamp at most that slot's bound (unsigned). A write stamped
 * above its key's bound is newer than whatever is stored, so it can be written without reading the
 * key first; only a write at or below the bound (a concurrent or replayed write, or another key of
 * the same slot written later) needs the read. Starts with every slot at one bound of the whole
 * store.
 *
 * <p>Not thread-safe: the store's serialised writers own it.
 */
final class VersionBounds {
  private final long[] bounds;
  private final int mask;

  /** {@code slots} (a power of two) bounds, each {@code initial}. */
  VersionBounds(int slots, long initial) {
    if (Integer.bitCount(slots) != 1) {
      throw new IllegalArgumentException("slots must be a power of two: " + slots);
    }
    this.bounds = new long[slots];
    this.mask = slots - 1;
    java.util.Arrays.fill(bounds, initial);
  }

  /** True when {@code timestamp} is above every version stored for {@code key}. */
  boolean above(byte[] key, long timestamp) {
    return Long.compareUnsigned(timestamp, bounds[slot(key)]) > 0;
  }

  /** Records that a version stamped {@code timestamp} of {@code key} is being stored. */
  void raise(byte[] key, long timestamp) {
    int slot = slot(key);
    if (Long.compareUnsigned(timestamp, bounds[slot]) > 0) {
      bounds[slot] = timestamp;
    }
  }

  /** Records that versions up to {@code timestamp} of any key are being stored. */
  void raiseAll(long timestamp) {
    for (int slot = 0; slot < bounds.length; slot++) {
      if (Long.compareUnsigned(timestamp, bounds[slot]) > 0) {
        bounds[slot] = timestamp;
      }
    }
  }

  private int slot(byte[] key) {
    long h = 0xcbf29ce484222325L; // FNV-1a, then a final mix so that the low bits spread
    for (byte b : key) {
      h = (h ^ (b & 0xff)) * 0x100000001b3L;
    }
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    h ^= h >>> 33;
    return (int) h & mask;
  }
}
