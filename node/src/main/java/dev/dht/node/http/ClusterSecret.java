package dev.dht.node.http;

import dev.dht.node.cluster.ClusterSecrets;
import dev.dht.node.replication.InternalApi;
import io.vertx.core.http.HttpServerRequest;
import javax.net.ssl.SSLPeerUnverifiedException;

/**
 * Who may make node-to-node and admin requests: a request carrying the cluster secret (none
 * configured: every request), or, for peer requests, one over a connection whose client certificate
 * the TLS handshake verified against the cluster's CAs (only the peer port asks for one).
 */
final class ClusterSecret {
  private final ClusterSecrets secrets;

  ClusterSecret(ClusterSecrets secrets) {
    this.secrets = secrets;
  }

  /** Whether the request carries an accepted secret (compared in constant time). */
  boolean admits(HttpServerRequest request) {
    return secrets.admits(request.getHeader(InternalApi.SECRET_HEADER));
  }

  /** Whether a peer request gets in: a verified peer certificate, or the secret. */
  boolean admitsPeer(HttpServerRequest request) {
    return hasVerifiedCertificate(request) || admits(request);
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
