package dev.dht.node.http;

import java.nio.charset.StandardCharsets;

/** What a key may be: non-empty, at most the byte limit in UTF-8, no newline (ranges use it). */
final class KeyRules {
  private KeyRules() {}

  /** The reason {@code key} (the {@code param} query value) is not acceptable; null if it is. */
  static String check(String key, int maxBytes, String param) {
    if (key == null || key.isEmpty()) {
      return "missing or empty '" + param + "' parameter";
    }
    if (key.length() > maxBytes || key.getBytes(StandardCharsets.UTF_8).length > maxBytes) {
      return "'" + param + "' is longer than " + maxBytes + " bytes";
    }
    if (key.indexOf('\n') >= 0) {
      return "'" + param + "' must not contain a newline";
    }
    return null;
  }
}
