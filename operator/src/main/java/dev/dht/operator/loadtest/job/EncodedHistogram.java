package dev.dht.operator.loadtest.job;

import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import org.HdrHistogram.Histogram;

/**
 * A generator's latency histogram as it travels in {@code /progress}, {@code /result} and the
 * generators ConfigMap: HdrHistogram's compressed encoding, in base64. HdrHistogram sizes the
 * histogram it decodes into from the encoded header (lowest and highest trackable value,
 * significant digits) before it reads any count: 5 digits up to 2^62 is a 50 MB array from a
 * 60-byte input. So the header is read here first, and only a histogram of the shape the load
 * generator makes is decoded. Pure.
 */
final class EncodedHistogram {
  /** The load generator records with 3 significant digits, like wrk2. */
  static final int MAX_SIGNIFICANT_DIGITS = 3;

  /**
   * In microseconds, about 12.7 days: the generator tracks up to a day, and its auto-resizing
   * histograms round their range up to a power of two. With 3 digits this bounds the decoded counts
   * at 32768 longs (256 KiB).
   */
  static final long MAX_TRACKABLE_VALUE = 1L << 40;

  /** HdrHistogram's V2 compressed and plain encodings; the low nibble's word size is masked. */
  private static final int COMPRESSED_COOKIE_BASE = 0x1c849304;

  private static final int COOKIE_BASE = 0x1c849303;
  private static final int COOKIE_MASK = ~0xf0;

  /** The plain header: cookie, payload length, index offset, digits, lowest, highest, ratio. */
  private static final int HEADER_BYTES = 40;

  private EncodedHistogram() {}

  /** The histogram, or IllegalArgumentException saying why it is not one the operator reads. */
  static Histogram decode(String base64) {
    byte[] bytes;
    try {
      bytes = Base64.getDecoder().decode(base64);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("not base64: " + e.getMessage());
    }
    checkHeader(bytes);
    try {
      return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(bytes), 0);
    } catch (DataFormatException | RuntimeException e) {
      throw new IllegalArgumentException("unreadable histogram: " + e.getMessage());
    }
  }

  /** Refuses anything but a compressed histogram whose shape stays within the bounds above. */
  static void checkHeader(byte[] bytes) {
    if (bytes.length < 8) {
      throw new IllegalArgumentException("too short for a histogram");
    }
    var outer = ByteBuffer.wrap(bytes);
    if ((outer.getInt() & COOKIE_MASK) != COMPRESSED_COOKIE_BASE) {
      throw new IllegalArgumentException("not a compressed HdrHistogram (V2)");
    }
    int compressed = outer.getInt();
    if (compressed <= 0 || compressed > bytes.length - 8) {
      throw new IllegalArgumentException(
          "compressed length " + compressed + " is not what follows");
    }
    var header = ByteBuffer.wrap(inflateHeader(bytes, compressed));
    if ((header.getInt() & COOKIE_MASK) != COOKIE_BASE) {
      throw new IllegalArgumentException("not an HdrHistogram (V2) inside");
    }
    header.getInt(); // payload length: HdrHistogram caps it at the counts' size
    header.getInt(); // normalizing index offset
    int digits = header.getInt();
    long lowest = header.getLong();
    long highest = header.getLong();
    if (digits < 0 || digits > MAX_SIGNIFICANT_DIGITS) {
      throw new IllegalArgumentException(
          digits + " significant digits: at most " + MAX_SIGNIFICANT_DIGITS + " are read");
    }
    if (lowest < 1 || highest < 2 * lowest || highest > MAX_TRACKABLE_VALUE) {
      throw new IllegalArgumentException(
          "range "
              + lowest
              + ".."
              + highest
              + ": only ranges within 1.."
              + MAX_TRACKABLE_VALUE
              + " are read");
    }
  }

  private static byte[] inflateHeader(byte[] bytes, int compressed) {
    var inflater = new Inflater();
    try {
      inflater.setInput(bytes, 8, compressed);
      byte[] header = new byte[HEADER_BYTES];
      int n = 0;
      while (n < HEADER_BYTES && !inflater.finished() && !inflater.needsInput()) {
        n += inflater.inflate(header, n, HEADER_BYTES - n);
      }
      if (n < HEADER_BYTES) {
        throw new IllegalArgumentException("histogram header cut short");
      }
      return header;
    } catch (DataFormatException e) {
      throw new IllegalArgumentException("histogram header not deflated: " + e.getMessage());
    } finally {
      inflater.end();
    }
  }
}
