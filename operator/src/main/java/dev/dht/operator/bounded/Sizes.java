package dev.dht.operator.bounded;

/** Byte counts in words, for messages. Pure. */
final class Sizes {
  private static final long KIB = 1024;
  private static final long MIB = 1024 * KIB;

  private Sizes() {}

  /** 16 MiB, 64 KiB, 1000 bytes: the largest unit that divides it exactly. */
  static String describe(long bytes) {
    if (bytes >= MIB && bytes % MIB == 0) {
      return bytes / MIB + " MiB";
    }
    if (bytes >= KIB && bytes % KIB == 0) {
      return bytes / KIB + " KiB";
    }
    return bytes + " bytes";
  }
}
