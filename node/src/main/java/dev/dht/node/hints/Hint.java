package dev.dht.node.hints;

import dev.dht.node.storage.Record;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * A write that a replica missed, kept by its coordinator to be replayed to it. Pure encoding: a
 * hint's key sorts by target, then by age, so a target's hints are read oldest first.
 *
 * <pre>
 * key   := targetLength:u16 target(UTF-8) createdMillis:i64 sequence:i64
 * value := keyLength:i32 key record
 * </pre>
 */
public record Hint(String target, long createdMillis, long sequence, byte[] key, Record record) {
  /** The prefix of the keys of every hint for {@code target}. */
  public static byte[] prefix(String target) {
    byte[] utf8 = target.getBytes(StandardCharsets.UTF_8);
    return ByteBuffer.allocate(2 + utf8.length).putShort((short) utf8.length).put(utf8).array();
  }

  public byte[] encodedKey() {
    byte[] prefix = prefix(target);
    return ByteBuffer.allocate(prefix.length + 16)
        .put(prefix)
        .putLong(createdMillis)
        .putLong(sequence)
        .array();
  }

  public byte[] encodedValue() {
    byte[] encoded = record.encoded();
    return ByteBuffer.allocate(4 + key.length + encoded.length)
        .putInt(key.length)
        .put(key)
        .put(encoded)
        .array();
  }

  /** The bytes the hint takes on disk. */
  public int bytes() {
    return 2 + target.length() + 16 + 4 + key.length + record.encoded().length;
  }

  /** The target of a hint key (without decoding the rest). */
  public static String targetOf(byte[] encodedKey) {
    return new String(encodedKey, 2, targetLength(encodedKey), StandardCharsets.UTF_8);
  }

  /**
   * Decodes a hint this node wrote. It comes back from disk, so a damaged entry is refused with an
   * {@link IllegalArgumentException} that says what is wrong, instead of whatever a buffer throws
   * (or an allocation of a garbage length).
   */
  public static Hint decode(byte[] encodedKey, byte[] encodedValue) {
    int targetLength = targetLength(encodedKey);
    if (encodedKey.length != 2 + targetLength + 16) {
      throw new IllegalArgumentException(
          "a hint key of "
              + encodedKey.length
              + " bytes for a target of "
              + targetLength
              + ": expected "
              + (2 + targetLength + 16));
    }
    ByteBuffer k = ByteBuffer.wrap(encodedKey, 2 + targetLength, 16);
    long created = k.getLong();
    long sequence = k.getLong();
    if (encodedValue.length < 4) {
      throw new IllegalArgumentException("a hint value of " + encodedValue.length + " bytes");
    }
    ByteBuffer v = ByteBuffer.wrap(encodedValue);
    int keyLength = v.getInt();
    if (keyLength < 0 || keyLength > v.remaining()) {
      throw new IllegalArgumentException(
          "a hint value with a key of "
              + keyLength
              + " bytes, with "
              + v.remaining()
              + " bytes left");
    }
    byte[] key = new byte[keyLength];
    v.get(key);
    byte[] record = new byte[v.remaining()];
    v.get(record);
    return new Hint(
        new String(encodedKey, 2, targetLength, StandardCharsets.UTF_8),
        created,
        sequence,
        key,
        Record.decode(record));
  }

  private static int targetLength(byte[] encodedKey) {
    if (encodedKey.length < 2) {
      throw new IllegalArgumentException("a hint key of " + encodedKey.length + " bytes");
    }
    int length = ByteBuffer.wrap(encodedKey).getShort() & 0xffff;
    if (length > encodedKey.length - 2) {
      throw new IllegalArgumentException(
          "a hint key of " + encodedKey.length + " bytes for a target of " + length);
    }
    return length;
  }
}
