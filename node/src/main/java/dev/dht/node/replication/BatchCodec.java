package dev.dht.node.replication;

import dev.dht.node.storage.Record;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The binary body of an internal batch. Pure: no I/O.
 *
 * <pre>
 * request  := op*      op     := kind:u8 (0 read, 1 write) keyLength:i32 key [recordLength:i32 record]
 * response := result*  result := 0 (absent) | 1 recordLength:i32 record | 2 (failed)
 * </pre>
 *
 * Results come in the order of the ops.
 */
public final class BatchCodec {
  private static final byte READ = 0;
  private static final byte WRITE = 1;
  private static final byte ABSENT = 0;
  private static final byte PRESENT = 1;
  private static final byte FAILED = 2;

  /** A replica's answer to one op: its record, or null; {@code failed} if the op failed. */
  public record Result(Record record, boolean failed) {
    public static final Result ABSENT = new Result(null, false);
    public static final Result FAILURE = new Result(null, true);
  }

  /** A malformed batch body; answered with 400. */
  public static final class MalformedException extends IllegalArgumentException {
    MalformedException(String message) {
      super(message);
    }
  }

  private BatchCodec() {}

  public static Buffer encodeOps(List<ReplicaOp> ops) {
    int size = 0;
    for (ReplicaOp op : ops) {
      size += 1 + 4 + op.key().length + (op.isWrite() ? 4 + op.record().encoded().length : 0);
    }
    Buffer body = Buffer.buffer(size);
    for (ReplicaOp op : ops) {
      body.appendByte(op.isWrite() ? WRITE : READ).appendInt(op.key().length).appendBytes(op.key());
      if (op.isWrite()) {
        body.appendInt(op.record().encoded().length).appendBytes(op.record().encoded());
      }
    }
    return body;
  }

  /** Decodes ops, checking every length against the limits before allocating. */
  public static List<ReplicaOp> decodeOps(Buffer body, int maxKeyBytes, int maxRecordBytes) {
    List<ReplicaOp> ops = new ArrayList<>();
    int at = 0;
    while (at < body.length()) {
      byte kind = body.getByte(at);
      if (kind != READ && kind != WRITE) {
        throw new MalformedException("unknown op kind " + kind + " at byte " + at);
      }
      byte[] key = lengthPrefixed(body, at + 1, maxKeyBytes, "key");
      at += 1 + 4 + key.length;
      if (kind == READ) {
        ops.add(ReplicaOp.read(key));
      } else {
        byte[] record = lengthPrefixed(body, at, maxRecordBytes, "record");
        at += 4 + record.length;
        ops.add(ReplicaOp.write(key, decodeRecord(record)));
      }
    }
    return ops;
  }

  public static Buffer encodeResults(List<Result> results) {
    Buffer body = Buffer.buffer(results.size() * 16);
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

  public static List<Result> decodeResults(Buffer body, int expected) {
    List<Result> results = new ArrayList<>(expected);
    int at = 0;
    while (at < body.length()) {
      byte kind = body.getByte(at);
      switch (kind) {
        case ABSENT -> {
          results.add(Result.ABSENT);
          at += 1;
        }
        case FAILED -> {
          results.add(Result.FAILURE);
          at += 1;
        }
        case PRESENT -> {
          byte[] record = lengthPrefixed(body, at + 1, Integer.MAX_VALUE - 8, "record");
          results.add(new Result(decodeRecord(record), false));
          at += 1 + 4 + record.length;
        }
        default -> throw new MalformedException("unknown result kind " + kind + " at byte " + at);
      }
    }
    if (results.size() != expected) {
      throw new MalformedException(results.size() + " results for " + expected + " ops");
    }
    return results;
  }

  private static byte[] lengthPrefixed(Buffer body, int at, int max, String what) {
    if (at + 4 > body.length()) {
      throw new MalformedException("truncated " + what + " length at byte " + at);
    }
    int length = body.getInt(at);
    if (length < 0 || length > max || at + 4 + length > body.length()) {
      throw new MalformedException("bad " + what + " length " + length + " at byte " + at);
    }
    return body.getBytes(at + 4, at + 4 + length);
  }

  private static Record decodeRecord(byte[] encoded) {
    try {
      return Record.decode(encoded);
    } catch (IllegalArgumentException e) {
      throw new MalformedException(e.getMessage());
    }
  }
}
