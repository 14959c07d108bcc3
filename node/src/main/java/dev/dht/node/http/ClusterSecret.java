package dev.dht.node.http;

import dev.dht.node.cluster.ClusterSecrets;
import dev.dht.node.replication.InternalApi;
import io.vertx.core.http.HttpServerRequest;

/** The cluster secret that node-to-node and admin requests must carry; none: every request may. */
final class ClusterSecret {
  private final ClusterSecrets secrets;

  ClusterSecret(ClusterSecrets secrets) {
    this.secrets = secrets;
  }

  /** Whether the request carries an accepted secret (compared in constant time). */
  boolean admits(HttpServerRequest request) {
    return secrets.admits(request.getHeader(InternalApi.SECRET_HEADER));
  }
}
