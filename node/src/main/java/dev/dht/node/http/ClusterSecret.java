package dev.dht.node.http;

import dev.dht.contract.UsersDocument;
import dev.dht.node.auth.CertificateNames;
import dev.dht.node.cluster.ClusterSecrets;
import dev.dht.node.replication.InternalApi;
import io.vertx.core.http.HttpServerRequest;
import javax.net.ssl.SSLPeerUnverifiedException;

/**
 * Who may make node-to-node and admin requests: one over a connection whose client certificate the
 * TLS handshake verified against the cluster's CAs (the peer port demands one, the admin port asks
 * for one) and that is not a client user's, or one carrying the cluster secret. Without a secret
 * configured, a plain-HTTP node admits every request (one node, or an explicitly insecure cluster);
 * a TLS node, certificates only.
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

  /**
   * A node's certificate: verified by the handshake, and not a client user's, which the cluster's
   * CA issues too ({@link UsersDocument#isUserCommonName}).
   */
  private static boolean hasVerifiedCertificate(HttpServerRequest request) {
    if (!request.isSSL()) {
      return false;
    }
    try {
      if (request.connection().peerCertificates().isEmpty()) {
        return false;
      }
    } catch (SSLPeerUnverifiedException e) {
      return false;
    }
    String commonName = CertificateNames.commonName(request.sslSession());
    return commonName == null || !UsersDocument.isUserCommonName(commonName);
  }
}
