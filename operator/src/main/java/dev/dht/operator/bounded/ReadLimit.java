package dev.dht.operator.bounded;

import java.time.Duration;

/**
 * How much of something a tenant can write the operator reads, and for how long, before it gives
 * up: at most {@code maxBytes}, all of it within {@code within}. The operator watches every
 * namespace it is given with one heap and a few reconciler threads, so a body without a cap could
 * exhaust the one and a body that trickles could hold the others.
 *
 * @param what names the thing read, for the error that says a limit was hit
 */
public record ReadLimit(String what, long maxBytes, Duration within) {
  public ReadLimit {
    if (maxBytes <= 0 || within.isNegative() || within.isZero()) {
      throw new IllegalArgumentException("a limit needs a positive size and time: " + what);
    }
  }

  /** The error for more than {@link #maxBytes}. */
  TooLargeException tooLarge() {
    return new TooLargeException(what, maxBytes);
  }
}
