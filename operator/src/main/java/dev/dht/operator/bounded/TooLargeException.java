package dev.dht.operator.bounded;

import java.io.IOException;

/** Something read was larger than its cap; it was not read further. */
public final class TooLargeException extends IOException {
  public TooLargeException(String what, long maxBytes) {
    super(what + " is larger than the " + Sizes.describe(maxBytes) + " the operator reads of it");
  }
}
