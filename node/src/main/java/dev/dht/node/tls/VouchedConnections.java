package dev.dht.node.tls;

import io.vertx.core.http.HttpConnection;
import java.security.cert.X509Certificate;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.net.ssl.SSLPeerUnverifiedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The TLS connections one server accepted with a client certificate, so that they can be closed
 * when the CA that vouched for that certificate leaves the trust bundle: TLS checks a client once,
 * at its handshake, and a peer (or user) whose CA was dropped, after a leak say, must not keep a
 * connection made before. Used on the server's event loop only.
 */
public final class VouchedConnections {
  private static final Logger log = LoggerFactory.getLogger(VouchedConnections.class);

  private final Set<HttpConnection> open = new HashSet<>();

  /** A new connection of the server: kept while it is open, if its client showed a certificate. */
  public void track(HttpConnection connection) {
    if (connection.isSsl() && leaf(connection) != null) {
      open.add(connection);
      connection.closeHandler(v -> open.remove(connection));
    }
  }

  /** Closes the connections whose client certificate no CA of {@code material} signed. */
  public void closeUntrusted(TlsMaterial material) {
    List<X509Certificate> cas = material.caCertificates();
    int closed = 0;
    for (HttpConnection connection : List.copyOf(open)) {
      X509Certificate leaf = leaf(connection);
      if (leaf != null && !TrustedIssuers.signedByAny(leaf, cas)) {
        open.remove(connection);
        connection.close();
        closed++;
      }
    }
    if (closed > 0) {
      log.info("closed {} connection(s) whose client certificate no trusted CA signed", closed);
    }
  }

  private static X509Certificate leaf(HttpConnection connection) {
    try {
      var chain = connection.peerCertificates();
      return chain.isEmpty() || !(chain.getFirst() instanceof X509Certificate leaf) ? null : leaf;
    } catch (SSLPeerUnverifiedException e) {
      return null;
    }
  }
}
