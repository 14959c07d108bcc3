package dev.dht.loadgen.engine;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/**
 * Request URIs {@code /v0/entity?id=<prefix><index>[&ack=A][&from=F]}, built once per key and
 * cached (the first 262,144 keys, ~20 MB), so that steady-state requests do not format strings.
 * Shared by all event loops: a racy cache of immutable strings is safe, at worst a string is built
 * twice.
 */
final class KeyUris {
  static final int MAX_CACHED = 1 << 18;

  private final String head;
  private final String tail;
  private final String[] cache;

  KeyUris(String keyPrefix, long keyspace, Integer ack, Integer from) {
    this.head =
        "/v0/entity?id=" + URLEncoder.encode(keyPrefix, StandardCharsets.UTF_8).replace("+", "%20");
    this.tail = (ack == null ? "" : "&ack=" + ack) + (from == null ? "" : "&from=" + from);
    this.cache = new String[(int) Math.min(keyspace, MAX_CACHED)];
  }

  String uri(long key) {
    if (key < cache.length) {
      String cached = cache[(int) key];
      if (cached == null) {
        cached = head + key + tail;
        cache[(int) key] = cached;
      }
      return cached;
    }
    return head + key + tail;
  }
}
