package dev.dht.node.repair;

import dev.dht.node.cluster.Ring;
import io.vertx.core.buffer.Buffer;
import java.util.BitSet;

/**
 * What one replica holds of the keys it shares with another, summarised per bucket of the key-hash
 * space: each bucket's digest is the sum of a hash of every (key, record) in it, so it does not
 * depend on the order of a scan, and two replicas whose buckets have equal digests hold the same
 * versions there (up to a 64-bit collision). Pure.
 */
public final class Digests {
  static final int BUCKET_BITS = 14;

  /** Buckets per pair of replicas: about 60 keys each at a million keys. */
  public static final int BUCKETS = 1 << BUCKET_BITS;

  /** The size of {@link #encode()}: a digest of 8 bytes a bucket. */
  public static final int ENCODED_BYTES = BUCKETS * Long.BYTES;

  private static final long BUCKET_SALT = 0x5bd1e9955bd1e995L;
  private final long[] sums;

  public Digests() {
    this(new long[BUCKETS]);
  }

  private Digests(long[] sums) {
    this.sums = sums;
  }

  /** The bucket of a key: independent of placement (another salt), even over the buckets. */
  public static int bucket(byte[] key) {
    return (int) (Ring.mix(Ring.hash(key) ^ BUCKET_SALT) >>> (64 - BUCKET_BITS));
  }

  /** Adds one stored version of a key (its record's encoding: timestamp, flags and value). */
  public void add(byte[] key, byte[] encodedRecord) {
    sums[bucket(key)] += Ring.mix(Ring.hash(key) * 31 + Ring.hash(encodedRecord));
  }

  /** The buckets whose digests differ. */
  public BitSet differing(Digests other) {
    BitSet differ = new BitSet(BUCKETS);
    for (int b = 0; b < BUCKETS; b++) {
      if (sums[b] != other.sums[b]) {
        differ.set(b);
      }
    }
    return differ;
  }

  public Buffer encode() {
    Buffer out = Buffer.buffer(ENCODED_BYTES);
    for (long sum : sums) {
      out.appendLong(sum);
    }
    return out;
  }

  public static Digests decode(Buffer in) {
    if (in.length() != ENCODED_BYTES) {
      throw new IllegalArgumentException(
          "digests of " + in.length() + " bytes, expected " + ENCODED_BYTES);
    }
    long[] sums = new long[BUCKETS];
    for (int b = 0; b < BUCKETS; b++) {
      sums[b] = in.getLong(b * Long.BYTES);
    }
    return new Digests(sums);
  }
}
