package dev.dht.node.replication;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/**
 * The node-to-node protocol. One path, under a prefix the public routes never use:
 *
 * <ul>
 *   <li>{@code GET /internal/v0/entry?id=K}: 200 with the encoded {@code Record} as the body (a
 *       tombstone too), or 404 when the key was never written;
 *   <li>{@code PUT /internal/v0/entry?id=K} with an encoded {@code Record} as the body (value or
 *       tombstone, timestamp inside): 201; the replica keeps whichever version is newer.
 * </ul>
 *
 * Every internal request carries the cluster secret header when one is configured.
 */
public final class InternalApi {
  public static final String PREFIX = "/internal/";
  public static final String ENTRY_PATH = PREFIX + "v0/entry";
  public static final String SECRET_HEADER = "X-Dht-Cluster-Secret";

  private InternalApi() {}

  public static String entryUri(String key) {
    return ENTRY_PATH + "?id=" + URLEncoder.encode(key, StandardCharsets.UTF_8);
  }
}
