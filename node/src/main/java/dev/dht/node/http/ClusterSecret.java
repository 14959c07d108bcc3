package dev.dht.node.http;

import dev.dht.node.replication.InternalApi;
import io.vertx.core.http.HttpServerRequest;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/** The cluster secret that node-to-node and admin requests must carry; none: every request may. */
final class ClusterSecret {
  private final byte[] secret;

  ClusterSecret(String secret) {
    this.secret = secret == null ? null : secret.getBytes(StandardCharsets.UTF_8);
  }

  /** Whether the request carries the secret (compared in constant time). */
  boolean admits(HttpServerRequest request) {
    String presented = request.getHeader(InternalApi.SECRET_HEADER);
    return secret == null
        || (presented != null
            && MessageDigest.isEqual(secret, presented.getBytes(StandardCharsets.UTF_8)));
  }
}
