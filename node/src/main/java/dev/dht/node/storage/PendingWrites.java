package dev.dht.node.storage;

import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The writes that landed during an ingest, kept in the node's facts (synced) until they are stored
 * again after it: an ingest puts its file above every write before it, so a crash between the two
 * would otherwise leave a newer write shadowed. Encoded as a count, then each key and record with
 * their lengths. Pure.
 */
final class PendingWrites {
  /** A larger set is not kept: the ingest is given up, and its stream tries again. */
  static final int MAX_BYTES = 64 << 20;

  private PendingWrites() {}

  static byte[] encode(Map<ByteBuffer, Record> writes) {
    long size = Integer.BYTES;
    for (Map.Entry<ByteBuffer, Record> e : writes.entrySet()) {
      size += 2L * Integer.BYTES + e.getKey().remaining() + e.getValue().encoded().length;
    }
    if (size > MAX_BYTES) {
      throw new StorageException(
          size + " bytes of writes landed during an ingest: not ingested, try again", null);
    }
    ByteBuffer out = ByteBuffer.allocate((int) size).putInt(writes.size());
    writes.forEach((key, record) -> {
      out.putInt(key.remaining()).put(key.duplicate());
      out.putInt(record.encoded().length).put(record.encoded());
    });
    return out.array();
  }

  static Map<ByteBuffer, Record> decode(byte[] bytes) {
    ByteBuffer in = ByteBuffer.wrap(bytes);
    Map<ByteBuffer, Record> writes = new LinkedHashMap<>();
    for (int n = in.getInt(); n > 0; n--) {
      byte[] key = new byte[in.getInt()];
      in.get(key);
      byte[] record = new byte[in.getInt()];
      in.get(record);
      writes.put(ByteBuffer.wrap(key), Record.decode(record));
    }
    return writes;
  }
}
