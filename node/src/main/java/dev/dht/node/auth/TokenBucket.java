package dev.dht.node.auth;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * A user's quota on one node: a token bucket of {@code perSecond} tokens that holds one second's
 * worth (so a client may burst a second's requests at once, then keeps to the rate). Kept as one
 * number, the time at which the bucket would be full again (the "generic cell rate algorithm"), so
 * that every event loop of the node takes from it with a single compare-and-set: no lock on the
 * request path, and no timer refilling it.
 */
public final class TokenBucket {
  private final long perSecond;
  private final long intervalNanos;
  private final long toleranceNanos;
  private final LongSupplier nanoClock;

  /** When the bucket is full again; a request takes one interval's worth. */
  private final AtomicLong fullAt;

  /** A full bucket; {@code nanoClock} is {@link System#nanoTime} but for tests. */
  public TokenBucket(long perSecond, LongSupplier nanoClock) {
    if (perSecond < 1 || perSecond > 1_000_000_000L) {
      throw new IllegalArgumentException("a rate of 1 to 10^9 a second, got " + perSecond);
    }
    this.perSecond = perSecond;
    this.intervalNanos = 1_000_000_000L / perSecond;
    this.toleranceNanos = (perSecond - 1) * intervalNanos;
    this.nanoClock = nanoClock;
    this.fullAt = new AtomicLong(nanoClock.getAsLong());
  }

  /**
   * Takes a token if there is one: returns 0 if the request may go (the token is taken), else the
   * nanoseconds until a token is there (nothing is taken).
   */
  public long tryTake() {
    long now = nanoClock.getAsLong();
    while (true) {
      long full = fullAt.get();
      long wait = full - toleranceNanos - now;
      if (wait > 0) {
        return wait;
      }
      if (fullAt.compareAndSet(full, Math.max(full, now) + intervalNanos)) {
        return 0;
      }
    }
  }

  public long perSecond() {
    return perSecond;
  }

  /** A wait as the whole seconds of a {@code Retry-After} header: rounded up, at least 1. */
  public static long retryAfterSeconds(long waitNanos) {
    return Math.max(1, (waitNanos + 999_999_999L) / 1_000_000_000L);
  }
}
