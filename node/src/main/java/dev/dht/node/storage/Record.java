package dev.dht.node.storage;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * A stored version of an entry: its write timestamp, whether it is a tombstone, and the value.
 *
 * <p>On disk and between replicas a record is one byte array: 8 bytes of timestamp (big-endian), 1
 * flag byte, then the value bytes. Keeping the wire and disk encodings identical means a replica
 * read is shipped to the coordinator without re-encoding.
 */
public record Record(long timestamp, boolean tombstone, byte[] encoded) {
  public static final int HEADER_BYTES = Long.BYTES + 1;
  private static final byte TOMBSTONE = 1;

  public static Record value(long timestamp, byte[] value) {
    byte[] encoded = header(timestamp, (byte) 0, value.length);
    System.arraycopy(value, 0, encoded, HEADER_BYTES, value.length);
    return new Record(timestamp, false, encoded);
  }

  /**
   * An encoded value record with its header written and {@code valueLength} bytes left for the
   * caller to fill from offset {@link #HEADER_BYTES}, then {@link #decode}: saves a copy when the
   * value arrives in a network buffer.
   */
  public static byte[] encodedValueOf(long timestamp, int valueLength) {
    return header(timestamp, (byte) 0, valueLength);
  }

  public static Record tombstone(long timestamp) {
    return new Record(timestamp, true, header(timestamp, TOMBSTONE, 0));
  }

  /** Decodes a record written by {@link #encoded()}; rejects anything shorter than a header. */
  public static Record decode(byte[] encoded) {
    if (encoded.length < HEADER_BYTES) {
      throw new IllegalArgumentException("record shorter than its header: " + encoded.length);
    }
    long timestamp = ByteBuffer.wrap(encoded, 0, Long.BYTES).getLong();
    boolean tombstone = (encoded[Long.BYTES] & TOMBSTONE) != 0;
    return new Record(timestamp, tombstone, encoded);
  }

  /** This version without its value: its timestamp and whether it is a tombstone. */
  public Record digest() {
    return encoded.length == HEADER_BYTES
        ? this
        : new Record(timestamp, tombstone, Arrays.copyOf(encoded, HEADER_BYTES));
  }

  /** The same entry (value or tombstone) stamped with another timestamp. */
  public Record withTimestamp(long newTimestamp) {
    byte[] copy = encoded.clone();
    ByteBuffer.wrap(copy).putLong(0, newTimestamp);
    return new Record(newTimestamp, tombstone, copy);
  }

  public int valueLength() {
    return encoded.length - HEADER_BYTES;
  }

  public byte[] valueBytes() {
    return Arrays.copyOfRange(encoded, HEADER_BYTES, encoded.length);
  }

  /**
   * True when this version wins over {@code other}: the newer timestamp, and on a tie (two
   * coordinators whose node tiebreaks collide, in the same millisecond and counter) the larger
   * encoding, so every replica picks the same winner whatever the arrival order. Null always loses.
   */
  public boolean newerThan(Record other) {
    if (other == null) {
      return true;
    }
    int byTime = Long.compareUnsigned(timestamp, other.timestamp);
    return byTime > 0 || (byTime == 0 && Arrays.compareUnsigned(encoded, other.encoded) > 0);
  }

  private static byte[] header(long timestamp, byte flags, int valueLength) {
    byte[] encoded = new byte[HEADER_BYTES + valueLength];
    ByteBuffer.wrap(encoded).putLong(timestamp).put(flags);
    return encoded;
  }
}
