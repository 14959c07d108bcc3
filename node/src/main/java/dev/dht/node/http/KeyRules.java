package dev.dht.node.http;

/** What a key may be: non-empty, at most the byte limit in UTF-8, no newline (ranges use it). */
final class KeyRules {
  private KeyRules() {}

  /** The reason {@code key} (the {@code param} query value) is not acceptable; null if it is. */
  static String check(byte[] key, int maxBytes, String param) {
    if (key == null || key.length == 0) {
      return "missing or empty '" + param + "' parameter";
    }
    if (key.length > maxBytes) {
      return "'" + param + "' is longer than " + maxBytes + " bytes";
    }
    for (byte b : key) {
      if (b == '\n') {
        return "'" + param + "' must not contain a newline";
      }
    }
    return null;
  }
}
