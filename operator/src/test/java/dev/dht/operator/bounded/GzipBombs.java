package dev.dht.operator.bounded;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;

/** Small gzips of much zeros, made fast: one member of zeros, repeated (gunzip reads them all). */
public final class GzipBombs {
  private static final int MEMBER_ZEROS = 64 * 1024 * 1024;

  private GzipBombs() {}

  /** A gzip that unpacks to {@code mebibytes} MiB of zeros (a multiple of 64): ~1 KiB per MiB. */
  public static byte[] zeros(int mebibytes) {
    byte[] member = member();
    var out = new ByteArrayOutputStream();
    for (int i = 0; i < mebibytes / 64; i++) {
      out.writeBytes(member);
    }
    return out.toByteArray();
  }

  private static byte[] member() {
    var out = new ByteArrayOutputStream();
    try (var gz =
        new GZIPOutputStream(out) {
          {
            def.setLevel(Deflater.BEST_COMPRESSION);
          }
        }) {
      byte[] zeros = new byte[1024 * 1024];
      for (int i = 0; i < MEMBER_ZEROS / zeros.length; i++) {
        gz.write(zeros);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }
}
