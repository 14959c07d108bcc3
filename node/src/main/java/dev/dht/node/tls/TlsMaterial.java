package dev.dht.node.tls;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.file.FileSystem;
import io.vertx.core.http.ClientAuth;
import io.vertx.core.net.ClientSSLOptions;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.core.net.PemTrustOptions;
import io.vertx.core.net.ServerSSLOptions;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.List;

/**
 * What {@link TlsFiles} held when last read, and the TLS options made of it: servers present the
 * certificate, the peer port demands a client certificate that chains to the CAs, and the node's
 * own client presents its certificate and checks the server's, host name included.
 */
public record TlsMaterial(Buffer cert, Buffer key, Buffer ca) {
  /** Reads the three files, blocking: at start, before the servers listen. */
  public static TlsMaterial readNow(TlsFiles files) {
    try {
      return new TlsMaterial(
          Buffer.buffer(Files.readAllBytes(files.certFile())),
          Buffer.buffer(Files.readAllBytes(files.keyFile())),
          Buffer.buffer(Files.readAllBytes(files.caFile())));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the TLS files " + files, e);
    }
  }

  /** Reads the three files without blocking; fails if one is missing. */
  static Future<TlsMaterial> read(FileSystem fs, TlsFiles files) {
    Future<Buffer> cert = fs.readFile(files.certFile().toString());
    Future<Buffer> key = fs.readFile(files.keyFile().toString());
    Future<Buffer> ca = fs.readFile(files.caFile().toString());
    return Future.all(cert, key, ca)
        .map(all -> new TlsMaterial(cert.result(), key.result(), ca.result()));
  }

  /**
   * A server's options: it presents the node's certificate, and asks for (or demands) a client
   * certificate that chains to the CAs as {@code clientAuth} says.
   */
  public ServerSSLOptions server(ClientAuth clientAuth) {
    ServerSSLOptions options = new ServerSSLOptions().setKeyCertOptions(keyCert());
    if (clientAuth != ClientAuth.NONE) {
      options.setClientAuth(clientAuth).setTrustOptions(trust());
    }
    return options;
  }

  /** A peer client's options: it presents this node's certificate and checks the peer's. */
  public ClientSSLOptions client() {
    return new ClientSSLOptions()
        .setKeyCertOptions(keyCert())
        .setTrustOptions(trust())
        .setHostnameVerificationAlgorithm("HTTPS");
  }

  /** The names a peer's certificate must carry: this node's own ({@link PeerNames}). */
  public PeerNames peerNames() {
    try {
      var own =
          CertificateFactory.getInstance("X.509")
              .generateCertificate(new ByteArrayInputStream(cert.getBytes()));
      return PeerNames.of((X509Certificate) own);
    } catch (CertificateException | ClassCastException e) {
      return new PeerNames(java.util.Set.of());
    }
  }

  /** The CAs of the trust bundle; none when it cannot be read. */
  public List<X509Certificate> caCertificates() {
    try {
      return CertificateFactory.getInstance("X.509")
          .generateCertificates(new ByteArrayInputStream(ca.getBytes()))
          .stream()
          .filter(X509Certificate.class::isInstance)
          .map(X509Certificate.class::cast)
          .toList();
    } catch (CertificateException e) {
      return List.of();
    }
  }

  private PemKeyCertOptions keyCert() {
    return new PemKeyCertOptions().setCertValue(cert).setKeyValue(key);
  }

  private PemTrustOptions trust() {
    return new PemTrustOptions().addCertValue(ca);
  }
}
