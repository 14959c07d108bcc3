package dev.dht.node.repair;

import dev.dht.node.replication.BatchCodec;
import dev.dht.node.replication.ReplicaOp;
import io.vertx.core.buffer.Buffer;
import java.util.List;

/**
 * The frames of an entries stream ({@link RepairApi}): {@code length:i32}, then that many bytes of
 * write ops in {@link BatchCodec} encoding. They come from a peer, so a receiver bounds the length
 * before buffering a frame, and the ops within it before decoding them; anything else is a {@link
 * BatchCodec.MalformedException}. Pure.
 */
public final class RepairFrames {
  /**
   * The most ops a frame may carry. A sender ({@link RepairScans.EntryScan}) stops filling a frame
   * once it counts {@link RepairApi#FRAME_BYTES} (at least 18 counted bytes an op), after one more
   * scan batch ({@link RepairScans#SCAN_BATCH}): about 62,000 ops at most. Twice that leaves room;
   * the frame's byte limit alone would allow 880,000 ops of 19 bytes, some 100 MB of objects.
   */
  public static final int MAX_OPS = 1 << 17;

  private RepairFrames() {}

  /** A frame of {@code ops}, with its length. */
  public static Buffer encode(List<ReplicaOp> ops) {
    Buffer body = BatchCodec.encodeOps(ops);
    return Buffer.buffer(4 + body.length()).appendInt(body.length()).appendBuffer(body);
  }

  /** Checks a frame's declared length, before its bytes are buffered: 1 to the frame limit. */
  public static int checkLength(int length) {
    if (length <= 0 || length > RepairApi.MAX_FRAME_BYTES) {
      throw new BatchCodec.MalformedException(
          "a repair frame of "
              + length
              + " bytes: a frame has 1 to "
              + RepairApi.MAX_FRAME_BYTES
              + " bytes");
    }
    return length;
  }

  /**
   * The ops of a frame's body (without its length): writes only, at least one, each within the key
   * and record limits.
   */
  public static List<ReplicaOp> decode(Buffer body, int maxKeyBytes, int maxRecordBytes) {
    List<ReplicaOp> ops =
        BatchCodec.decodeOps(body, new BatchCodec.OpBounds(MAX_OPS, maxKeyBytes, maxRecordBytes));
    if (ops.isEmpty()) {
      throw new BatchCodec.MalformedException("an empty repair frame");
    }
    for (int i = 0; i < ops.size(); i++) {
      if (!ops.get(i).isWrite()) {
        throw new BatchCodec.MalformedException(
            "op " + i + " of a repair frame is a read: a frame carries writes only");
      }
    }
    return ops;
  }
}
