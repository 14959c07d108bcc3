package dev.dht.node.replication;

import dev.dht.node.storage.Record;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The binary body of an internal batch. Pure: no I/O.
 *
 * <pre>
 * request  := op*      op     := kind:u8 (0 read, 1 write, 2 digest) keyLength:i32 key
 *                               [recordLength:i32 record]                          (writes)
 * response := result*  result := 0 (absent) | 1 recordLength:i32 record | 2 (failed)
 * </pre>
 *
 * Results come in the order of the ops. The bytes come from peers, so decoding trusts nothing:
 * every length is bounded (keys: non-empty, at most the key limit, no newline, as {@code KeyRules}
 * has every client key; records: a header at least, at most the record limit), the ops of a body
 * are counted, and anything else is a {@link MalformedException}, the one exception a decoder
 * throws. A body is decoded in full before any of it is used, so a malformed one is refused whole.
 */
public final class BatchCodec {
  /**
   * The most ops a replica takes in one batch. A sender ({@code PeerChannel}) packs at most 256;
   * four times that leaves room for a later sender to pack more without every replica refusing it
   * during a rolling upgrade. The body's byte limit alone would not do: 16 MiB of 6-byte reads are
   * 2.8 million ops, each a future and a storage lookup.
   */
  public static final int MAX_OPS_PER_BATCH = 1024;

  private static final byte READ = 0;
  private static final byte WRITE = 1;
  private static final byte DIGEST = 2;
  private static final byte ABSENT = 0;
  private static final byte PRESENT = 1;
  private static final byte FAILED = 2;

  /** A replica's answer to one op: its record, or null; {@code failed} if the op failed. */
  public record Result(Record record, boolean failed) {
    public static final Result ABSENT = new Result(null, false);
    public static final Result FAILURE = new Result(null, true);
  }

  /** What a body of ops may hold: how many ops, and how long their keys and records may be. */
  public record OpBounds(int maxOps, int maxKeyBytes, int maxRecordBytes) {}

  /** A malformed body (the reason says what and at which byte); a batch of them is answered 400. */
  public static final class MalformedException extends IllegalArgumentException {
    public MalformedException(String message) {
      super(message);
    }
  }

  private BatchCodec() {}

  /**
   * The ops as a body for a node that may not know digests (an HTTP batch): a digest goes as a
   * read, whose full answer serves as well.
   */
  public static Buffer encodeOps(List<ReplicaOp> ops) {
    return encodeOps(ops, false);
  }

  /** The ops as a body; digests as such if {@code digests}, else as reads. */
  static Buffer encodeOps(List<ReplicaOp> ops, boolean digests) {
    return appendOps(Buffer.buffer(opsBytes(ops)), ops, digests);
  }

  /** The bytes {@code ops} take encoded. */
  static int opsBytes(List<ReplicaOp> ops) {
    int size = 0;
    for (ReplicaOp op : ops) {
      size += 1 + 4 + op.key().length + (op.isWrite() ? 4 + op.record().encoded().length : 0);
    }
    return size;
  }

  /** Appends {@code ops}; digests as such if {@code digests}, else as reads. */
  static Buffer appendOps(Buffer body, List<ReplicaOp> ops, boolean digests) {
    for (ReplicaOp op : ops) {
      byte kind = op.isWrite() ? WRITE : op.digest() && digests ? DIGEST : READ;
      body.appendByte(kind).appendInt(op.key().length).appendBytes(op.key());
      if (op.isWrite()) {
        body.appendInt(op.record().encoded().length).appendBytes(op.record().encoded());
      }
    }
    return body;
  }

  /** Decodes the ops of a batch: at most {@link #MAX_OPS_PER_BATCH}, within the length limits. */
  public static List<ReplicaOp> decodeOps(Buffer body, int maxKeyBytes, int maxRecordBytes) {
    return decodeOps(body, new OpBounds(MAX_OPS_PER_BATCH, maxKeyBytes, maxRecordBytes));
  }

  /** Decodes ops within {@code bounds}, checking every length before allocating. */
  public static List<ReplicaOp> decodeOps(Buffer body, OpBounds bounds) {
    List<ReplicaOp> ops = new ArrayList<>();
    WireReader in = new WireReader(body);
    while (in.hasMore()) {
      if (ops.size() == bounds.maxOps()) {
        throw new MalformedException(
            "more than "
                + bounds.maxOps()
                + " ops: the op at byte "
                + in.position()
                + " is one too many");
      }
      int at = in.position();
      byte kind = in.nextByte();
      if (kind != READ && kind != WRITE && kind != DIGEST) {
        throw new MalformedException("unknown op kind " + kind + " at byte " + at);
      }
      byte[] key = key(in, bounds.maxKeyBytes());
      ops.add(
          switch (kind) {
            case READ -> ReplicaOp.read(key);
            case DIGEST -> ReplicaOp.digest(key);
            default -> ReplicaOp.write(key, record(in, bounds.maxRecordBytes()));
          });
    }
    return ops;
  }

  public static Buffer encodeResults(List<Result> results) {
    return appendResults(Buffer.buffer(results.size() * 16), results);
  }

  static Buffer appendResults(Buffer body, List<Result> results) {
    for (Result result : results) {
      if (result.failed()) {
        body.appendByte(FAILED);
      } else if (result.record() == null) {
        body.appendByte(ABSENT);
      } else {
        byte[] encoded = result.record().encoded();
        body.appendByte(PRESENT).appendInt(encoded.length).appendBytes(encoded);
      }
    }
    return body;
  }

  /**
   * Decodes the results of {@code expected} ops: exactly that many. A record's length is bounded by
   * the body only, which the caller bounds (it checks the answer's size before reading it).
   */
  public static List<Result> decodeResults(Buffer body, int expected) {
    List<Result> results = new ArrayList<>(expected);
    WireReader in = new WireReader(body);
    while (in.hasMore()) {
      if (results.size() == expected) {
        throw new MalformedException(
            "more results than the " + expected + " ops, from byte " + in.position());
      }
      int at = in.position();
      byte kind = in.nextByte();
      switch (kind) {
        case ABSENT -> results.add(Result.ABSENT);
        case FAILED -> results.add(Result.FAILURE);
        case PRESENT -> results.add(new Result(record(in, Integer.MAX_VALUE), false));
        default -> throw new MalformedException("unknown result kind " + kind + " at byte " + at);
      }
    }
    if (results.size() != expected) {
      throw new MalformedException(results.size() + " results for " + expected + " ops");
    }
    return results;
  }

  /** A key as a client could have written it (the rules of {@code KeyRules}). */
  private static byte[] key(WireReader in, int maxKeyBytes) {
    int at = in.position();
    byte[] key = in.lengthPrefixed("key", 1, maxKeyBytes);
    for (byte b : key) {
      if (b == '\n') {
        throw new MalformedException("key with a newline at byte " + at);
      }
    }
    return key;
  }

  private static Record record(WireReader in, int maxRecordBytes) {
    return Record.decode(in.lengthPrefixed("record", Record.HEADER_BYTES, maxRecordBytes));
  }
}
