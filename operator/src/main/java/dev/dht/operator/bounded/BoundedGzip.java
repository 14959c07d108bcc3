package dev.dht.operator.bounded;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.zip.GZIPInputStream;

/**
 * Gunzip with a cap on what comes out: a gzip of a gigabyte of zeros is a megabyte, so the size of
 * the input says nothing about the size of the output. Stops as soon as the output would pass the
 * cap, having held at most the cap.
 */
public final class BoundedGzip {
  private static final int CHUNK = 64 * 1024;

  private BoundedGzip() {}

  /**
   * The content of {@code gz} (one gzip member or several in a row), at most {@code maxBytes} of
   * it; {@link TooLargeException} (naming {@code what}) if there is more.
   */
  public static byte[] gunzip(byte[] gz, long maxBytes, String what) throws IOException {
    var out = new ByteArrayOutputStream();
    var chunk = new byte[CHUNK];
    try (var in = new GZIPInputStream(new ByteArrayInputStream(gz), CHUNK)) {
      for (int n; (n = in.read(chunk)) > 0; ) {
        if (out.size() + (long) n > maxBytes) {
          throw new TooLargeException(what + " (uncompressed)", maxBytes);
        }
        out.write(chunk, 0, n);
      }
    }
    return out.toByteArray();
  }
}
