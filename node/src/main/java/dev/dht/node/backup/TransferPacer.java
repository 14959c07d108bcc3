package dev.dht.node.backup;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * Keeps a backup's uploads, or a verification's downloads, under a rate (bytes per second, 0:
 * none), so that they take a bounded share of a serving node's network and disk: each read reserves
 * its bytes' time at the rate after the previous reservations, and waits while that is more than a
 * second ahead of now (so a second's worth may go in a burst). One pacer serves one backup's or one
 * verification's transfers.
 */
final class TransferPacer {
  /** Reads at most this many bytes at once, so a reservation never spans long. */
  static final int CHUNK = 64 << 10;

  private static final long SECOND = 1_000_000_000L;

  private final long bytesPerSecond;
  private final LongSupplier nanoTime;

  /** When the bytes reserved so far would all be sent, at the rate. */
  private long sentAtRateNanos;

  TransferPacer(long bytesPerSecond, LongSupplier nanoTime) {
    this.bytesPerSecond = bytesPerSecond;
    this.nanoTime = nanoTime;
    this.sentAtRateNanos = nanoTime.getAsLong();
  }

  /** How long {@code bytes} take at the rate (zero without one). */
  Duration atRate(long bytes) {
    return bytesPerSecond <= 0
        ? Duration.ZERO
        : Duration.ofMillis(bytes * 1000 / bytesPerSecond); // file sizes: no overflow
  }

  static TransferPacer of(long bytesPerSecond) {
    return new TransferPacer(bytesPerSecond, System::nanoTime);
  }

  /** How long to wait before sending {@code bytes} more (nanoseconds), reserving their time. */
  synchronized long reserve(int bytes) {
    if (bytesPerSecond <= 0) {
      return 0;
    }
    long now = nanoTime.getAsLong();
    sentAtRateNanos = Math.max(sentAtRateNanos, now) + bytes * SECOND / bytesPerSecond;
    return Math.max(0, sentAtRateNanos - now - SECOND);
  }

  InputStream paced(InputStream in) {
    return new FilterInputStream(in) {
      @Override
      public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
      }

      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        int n = super.read(b, off, Math.min(len, CHUNK));
        if (n > 0) {
          waitFor(reserve(n));
        }
        return n;
      }
    };
  }

  private static void waitFor(long nanos) throws IOException {
    if (nanos > 0) {
      try {
        Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("transfer interrupted", e);
      }
    }
  }
}
