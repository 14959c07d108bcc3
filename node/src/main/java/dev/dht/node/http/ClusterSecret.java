package dev.dht.node.http;

import dev.dht.contract.UsersDocument;
import dev.dht.node.auth.CertificateNames;
import dev.dht.node.cluster.ClusterSecrets;
import dev.dht.node.replication.InternalApi;
import dev.dht.node.tls.PeerNames;
import dev.dht.node.tls.TlsReloader;
import io.vertx.core.http.HttpServerRequest;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;

/**
 * Who may make node-to-node and admin requests: one over a connection whose client certificate the
 * TLS handshake verified against the cluster's CAs (the peer port demands one, the admin port asks
 * for one) and that is not a client user's, or one carrying the cluster secret. Without a secret
 * configured, a plain-HTTP node admits every request (one node, or an explicitly insecure cluster);
 * a TLS node, certificates only.
 */
final class ClusterSecret {
  private static final String PEER_KEY = "dev.dht.node.http.peer";

  private final ClusterSecrets secrets;
  private final TlsReloader tls;

  /** {@code tls}: the node's certificate and CAs; null for a plain-HTTP node. */
  ClusterSecret(ClusterSecrets secrets, TlsReloader tls) {
    this.secrets = secrets;
    this.tls = tls;
  }

  /** Whether the request gets in: a verified certificate, or an accepted secret (constant time). */
  boolean admits(HttpServerRequest request) {
    if (hasVerifiedCertificate(request)) {
      return true;
    }
    if (secrets.current() == null) {
      return tls == null;
    }
    return secrets.admits(request.getHeader(InternalApi.SECRET_HEADER));
  }

  /**
   * A node's certificate: verified by the handshake, not a client user's, which the cluster's CA
   * issues too ({@link UsersDocument#isUserCommonName}), and carrying this node's peer names
   * ({@link PeerNames}). Decided once per TLS session and names in force.
   */
  private boolean hasVerifiedCertificate(HttpServerRequest request) {
    if (tls == null || !request.isSSL()) {
      return false;
    }
    PeerNames names = tls.peerNames();
    SSLSession session = request.sslSession();
    if (session != null
        && session.getValue(PEER_KEY) instanceof Decision known
        && known.names() == names) {
      return known.peer();
    }
    boolean peer = isPeer(request, names);
    if (session != null) {
      session.putValue(PEER_KEY, new Decision(names, peer));
    }
    return peer;
  }

  private static boolean isPeer(HttpServerRequest request, PeerNames names) {
    X509Certificate leaf;
    try {
      var chain = request.connection().peerCertificates();
      if (chain.isEmpty() || !(chain.getFirst() instanceof X509Certificate first)) {
        return false;
      }
      leaf = first;
    } catch (SSLPeerUnverifiedException e) {
      return false;
    }
    String commonName = CertificateNames.commonName(request.sslSession());
    return (commonName == null || !UsersDocument.isUserCommonName(commonName))
        && names.carriedBy(leaf);
  }

  /** Whether a session's certificate is a peer's, for the names it was decided with. */
  private record Decision(PeerNames names, boolean peer) {}
}
