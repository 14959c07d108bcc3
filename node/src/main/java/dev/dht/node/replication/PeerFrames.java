package dev.dht.node.replication;

import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/**
 * The framed peer protocol, {@value #PROTOCOL}: a coordinator opens a connection to a peer's peer
 * port with {@code GET} {@value #PATH} and {@code Upgrade: dht-peer/1} (and the cluster secret, as
 * on every internal request), the peer answers 101, and from then on both sides exchange frames on
 * that connection, any number in flight, answered by id in any order:
 *
 * <pre>
 * frame   := length:i32 kind:u8 id:i32 payload     length counts kind, id and payload
 * OPS      coordinator to replica: remainingMs:i32 ops          ({@link BatchCodec})
 * RESULTS  replica to coordinator: wallClockMs:i64 results      (BatchCodec, in the ops' order)
 * REFUSED  replica to coordinator: status:u16 reason:utf-8      (the HTTP status a batch would get)
 * </pre>
 *
 * The version is the upgrade's: a node that does not know {@value #PROTOCOL} answers the upgrade
 * with 400, and the coordinator sends that peer HTTP batches ({@link InternalApi}) instead, so old
 * and new nodes run side by side. The bytes come from peers: {@link Reader} bounds every frame
 * before it buffers it. Pure: no I/O.
 */
public final class PeerFrames {
  public static final String PROTOCOL = "dht-peer/1";
  public static final String PATH = InternalApi.PREFIX + "v0/peer";

  public static final byte OPS = 1;
  public static final byte RESULTS = 2;
  public static final byte REFUSED = 3;

  /** length, kind and id. */
  static final int HEADER_BYTES = 4 + 1 + 4;

  /** The most of a refusal's reason a frame carries. */
  public static final int MAX_REASON_BYTES = 1024;

  private PeerFrames() {}

  /** One frame; its payload is valid only during the call that hands it over. */
  public record Frame(byte kind, int id, Buffer payload) {}

  /** The largest payload a frame of {@code kind} and {@code id} may carry; -1: none expected. */
  @FunctionalInterface
  public interface Bounds {
    long maxPayload(byte kind, int id);
  }

  public static Buffer ops(int id, long remainingMs, java.util.List<ReplicaOp> ops) {
    Buffer frame = start(OPS, id, 4 + BatchCodec.opsBytes(ops));
    frame.appendInt((int) Math.min(remainingMs, Integer.MAX_VALUE));
    BatchCodec.appendOps(frame, ops, true);
    return finish(frame);
  }

  public static Buffer results(
      int id, long wallClockMs, java.util.List<BatchCodec.Result> results) {
    Buffer frame = start(RESULTS, id, 8 + results.size() * 16);
    frame.appendLong(wallClockMs);
    BatchCodec.appendResults(frame, results);
    return finish(frame);
  }

  public static Buffer refused(int id, int status, String reason) {
    byte[] text = reason.getBytes(StandardCharsets.UTF_8);
    int length = Math.min(text.length, MAX_REASON_BYTES);
    Buffer frame = start(REFUSED, id, 2 + length);
    frame.appendUnsignedShort(status).appendBytes(text, 0, length);
    return finish(frame);
  }

  /** The status of a REFUSED payload. */
  public static int refusedStatus(Buffer payload) {
    if (payload.length() < 2) {
      throw new BatchCodec.MalformedException("a refusal of " + payload.length() + " bytes");
    }
    return payload.getUnsignedShort(0);
  }

  /** The reason of a REFUSED payload. */
  public static String refusedReason(Buffer payload) {
    return payload.getString(2, payload.length(), "UTF-8");
  }

  private static Buffer start(byte kind, int id, int payloadHint) {
    return Buffer.buffer(HEADER_BYTES + payloadHint).appendInt(0).appendByte(kind).appendInt(id);
  }

  private static Buffer finish(Buffer frame) {
    return frame.setInt(0, frame.length() - 4);
  }

  /**
   * Cuts a byte stream into frames. A frame's header is checked against its {@link Bounds} before
   * its payload is buffered, so a peer cannot make this side hold more than one frame's worth of
   * what it expects. Anything else is a {@link BatchCodec.MalformedException}; the connection is
   * then useless, since the stream cannot be resynchronised. Used from one event loop.
   */
  public static final class Reader {
    private final Bounds bounds;
    private final Consumer<Frame> frames;
    private Buffer held = Buffer.buffer(); // bytes not yet handed over start at {@code start}
    private int start;

    public Reader(Bounds bounds, Consumer<Frame> frames) {
      this.bounds = bounds;
      this.frames = frames;
    }

    public void feed(Buffer chunk) {
      Buffer in;
      if (start == held.length()) {
        in = chunk;
        start = 0;
      } else {
        in = held.appendBuffer(chunk); // appended in place: linear in the frame, however cut
      }
      int at = start;
      try {
        while (in.length() - at >= HEADER_BYTES) {
          int length = in.getInt(at);
          byte kind = in.getByte(at + 4);
          int id = in.getInt(at + 5);
          long max = bounds.maxPayload(kind, id);
          if (max < 0) {
            throw new BatchCodec.MalformedException(
                "unexpected frame of kind " + kind + ", id " + id);
          }
          if (length < HEADER_BYTES - 4 || length - (HEADER_BYTES - 4) > max) {
            throw new BatchCodec.MalformedException(
                "a frame of kind "
                    + kind
                    + " with "
                    + length
                    + " bytes; at most "
                    + max
                    + " expected");
          }
          if (in.length() - at - 4 < length) {
            break;
          }
          int payloadAt = at + HEADER_BYTES;
          at += 4 + length;
          frames.accept(new Frame(kind, id, in.slice(payloadAt, at)));
        }
      } finally {
        keep(in, chunk, at);
      }
    }

    /** Keeps the bytes of {@code in} from {@code at} on, copied out of a chunk it does not own. */
    private void keep(Buffer in, Buffer chunk, int at) {
      if (at == in.length()) {
        held = Buffer.buffer();
        start = 0;
      } else if (in == chunk || at > in.length() / 2) {
        held = in.getBuffer(at, in.length());
        start = 0;
      } else {
        held = in;
        start = at;
      }
    }
  }
}
