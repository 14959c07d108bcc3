package dev.dht.node.http;

import dev.dht.node.cluster.ClusterSecrets;
import dev.dht.node.replication.InternalApi;
import io.vertx.core.http.HttpServerRequest;
import javax.net.ssl.SSLPeerUnverifiedException;

/**
 * Who may make node-to-node and admin requests: one over a connection whose client certificate the
 * TLS handshake verified against the cluster's CAs (the peer port demands one, the admin port asks
 * for one), or one carrying the cluster secret. Without a secret configured, a plain-HTTP node
 * admits every request (one node, or an explicitly insecure cluster); a TLS node, certificates
 * only.
 */
final class ClusterSecret {
  private final ClusterSecrets secrets;
  private final boolean tls;

  ClusterSecret(ClusterSecrets secrets, boolean tls) {
    this.secrets = secrets;
    this.tls = tls;
  }

  /** Whether the request gets in: a verified certificate, or an accepted secret (constant time). */
  boolean admits(HttpServerRequest request) {
    if (hasVerifiedCertificate(request)) {
      return true;
    }
    if (secrets.current() == null) {
      return !tls;
    }
    return secrets.admits(request.getHeader(InternalApi.SECRET_HEADER));
  }

  private static boolean hasVerifiedCertificate(HttpServerRequest request) {
    if (!request.isSSL()) {
      return false;
    }
    try {
      return !request.connection().peerCertificates().isEmpty();
    } catch (SSLPeerUnverifiedException e) {
      return false;
    }
  }
}
