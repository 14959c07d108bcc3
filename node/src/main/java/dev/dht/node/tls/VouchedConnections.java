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
    if (connection.isSsl() && !chain(connection).isEmpty()) {
      open.add(connection);
      connection.closeHandler(v -> open.remove(connection));
    }
  }

  /**
   * Closes the connections whose client certificate chain no CA of {@code material} vouches for;
   * none if its bundle cannot be read (the server keeps the old one then).
   */
  public void closeUntrusted(TlsMaterial material) {
    List<X509Certificate> cas = material.caCertificates();
    if (cas.isEmpty()) {
      return;
    }
    int closed = 0;
    for (HttpConnection connection : List.copyOf(open)) {
      List<X509Certificate> chain = chain(connection);
      if (!chain.isEmpty() && !TrustedIssuers.vouchFor(chain, cas)) {
        open.remove(connection);
        connection.close();
        closed++;
      }
    }
    if (closed > 0) {
      log.info("closed {} connection(s) whose client certificate no trusted CA signed", closed);
    }
  }

  /** The client's certificate chain, leaf first; empty if it showed none. */
  private static List<X509Certificate> chain(HttpConnection connection) {
    try {
      return connection.peerCertificates().stream()
          .filter(X509Certificate.class::isInstance)
          .map(X509Certificate.class::cast)
          .toList();
    } catch (SSLPeerUnverifiedException e) {
      return List.of();
    }
  }
}
