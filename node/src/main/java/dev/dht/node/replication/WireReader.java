package dev.dht.node.replication;

import io.vertx.core.buffer.Buffer;

/**
 * Reads a peer's body front to back. Every length is checked against the bytes left before anything
 * is allocated, and the arithmetic never adds a length to a position ({@code at + length} overflows
 * an int for a length near 2^31, and the check then passes): what is compared is the length against
 * {@code length() - at}, which cannot overflow. Anything malformed throws {@link
 * BatchCodec.MalformedException} with the reason and the byte offset. Pure.
 */
final class WireReader {
  private final Buffer body;
  private int at;

  WireReader(Buffer body) {
    this.body = body;
  }

  boolean hasMore() {
    return at < body.length();
  }

  /** The offset of the next byte: for the reason of a refusal. */
  int position() {
    return at;
  }

  byte nextByte() {
    if (!hasMore()) {
      throw new BatchCodec.MalformedException("truncated at byte " + at);
    }
    return body.getByte(at++);
  }

  /**
   * The {@code length:i32} then {@code length} bytes of {@code what}, with {@code min <= length <=
   * max}.
   */
  byte[] lengthPrefixed(String what, int min, int max) {
    int start = at;
    if (body.length() - at < Integer.BYTES) {
      throw new BatchCodec.MalformedException(
          "truncated " + what + " length at byte " + start + ": the body ends at " + body.length());
    }
    int length = body.getInt(at);
    if (length < 0) {
      throw new BatchCodec.MalformedException(
          "negative " + what + " length " + length + " at byte " + start);
    }
    if (length < min) {
      throw new BatchCodec.MalformedException(
          what + " of " + length + " bytes at byte " + start + ": at least " + min + " expected");
    }
    if (length > max) {
      throw new BatchCodec.MalformedException(
          what + " of " + length + " bytes at byte " + start + ": more than the limit of " + max);
    }
    int left = body.length() - at - Integer.BYTES;
    if (length > left) {
      throw new BatchCodec.MalformedException(
          "truncated "
              + what
              + " at byte "
              + start
              + ": "
              + length
              + " bytes declared, "
              + left
              + " left");
    }
    at += Integer.BYTES;
    byte[] bytes = body.getBytes(at, at + length);
    at += length;
    return bytes;
  }
}
