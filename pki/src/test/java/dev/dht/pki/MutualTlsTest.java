package dev.dht.pki;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;

/**
 * Certificates as the nodes use them, in real TLS 1.3 handshakes of the JDK on 127.0.0.1: both ends
 * present a certificate (mutual TLS), the client checks the server's name against the alternative
 * names, and the trust bundle of a CA rotation (new and old CA) accepts leaves of either.
 */
class MutualTlsTest {
  private static final char[] PASSWORD = "unused".toCharArray();
  private static final String PEER = "demo-1.demo-peers.ns.svc";

  // real handshakes check the dates against the clock: certificates valid now
  private static final Instant NOW = Instant.now();

  private final CertificateAuthority oldCa = ca("demo CA old");
  private final CertificateAuthority newCa = ca("demo CA new");

  @Test
  void peersOfOneCaConnect() throws Exception {
    var bundle = List.of(oldCa.certificate());
    assertThat(handshake(leaf(oldCa), bundle, leaf(oldCa), bundle, PEER))
        .isEqualTo("CN=demo.ns node,O=dht");
  }

  @Test
  void duringARotationLeavesOfTheOldAndTheNewCaConnectBothWays() throws Exception {
    var both = List.of(newCa.certificate(), oldCa.certificate());
    assertThat(handshake(leaf(oldCa), both, leaf(newCa), both, PEER)).isNotNull();
    assertThat(handshake(leaf(newCa), both, leaf(oldCa), both, PEER)).isNotNull();
  }

  @Test
  void aPeerThatTrustsOnlyTheOldCaRefusesALeafOfTheNewOne() {
    var onlyOld = List.of(oldCa.certificate());
    var both = List.of(newCa.certificate(), oldCa.certificate());
    assertThatThrownBy(() -> handshake(leaf(newCa), both, leaf(oldCa), onlyOld, PEER))
        .isInstanceOf(IOException.class);
  }

  @Test
  void theClientChecksTheServersName() {
    var bundle = List.of(oldCa.certificate());
    assertThatThrownBy(() -> handshake(leaf(oldCa), bundle, leaf(oldCa), bundle, "other.ns.svc"))
        .isInstanceOf(IOException.class);
  }

  @Test
  void theServerRefusesAClientOfAnotherCa() {
    var bundle = List.of(oldCa.certificate());
    var stranger = leaf(newCa);
    assertThatThrownBy(() -> handshake(leaf(oldCa), bundle, stranger, bundle, PEER))
        .isInstanceOf(IOException.class);
  }

  private static CertificateAuthority ca(String name) {
    return CertificateAuthority.generate(
        name, Validity.of(NOW.minus(Duration.ofMinutes(1)), Duration.ofDays(365)));
  }

  private static IssuedCertificate leaf(CertificateAuthority ca) {
    return ca.issue(
        new LeafRequest(
            "demo.ns node",
            TestPki.NODE_NAMES,
            Validity.of(NOW.minus(Duration.ofMinutes(1)), Duration.ofDays(90))));
  }

  /**
   * A server with {@code serverLeaf} that requires a client certificate, a client with {@code
   * clientLeaf} that connects to it as {@code host}; one byte each way. Returns the client
   * certificate's subject as the server saw it; throws what the client saw on failure.
   */
  private static String handshake(
      IssuedCertificate serverLeaf,
      List<X509Certificate> serverTrusts,
      IssuedCertificate clientLeaf,
      List<X509Certificate> clientTrusts,
      String host)
      throws Exception {
    var loopback = InetAddress.getLoopbackAddress();
    try (var server =
        (SSLServerSocket)
            context(serverLeaf, serverTrusts)
                .getServerSocketFactory()
                .createServerSocket(0, 1, loopback)) {
      server.setNeedClientAuth(true);
      server.setSoTimeout(10_000);
      var served =
          CompletableFuture.supplyAsync(() -> {
            try (var socket = (SSLSocket) server.accept()) {
              socket.setSoTimeout(10_000);
              socket.getOutputStream().write(socket.getInputStream().read());
              socket.getOutputStream().flush();
              var client = (X509Certificate) socket.getSession().getPeerCertificates()[0];
              return client.getSubjectX500Principal().getName();
            } catch (IOException e) {
              return null;
            }
          });
      try (var raw = new Socket()) {
        raw.connect(new InetSocketAddress(loopback, server.getLocalPort()), 10_000);
        raw.setSoTimeout(10_000);
        try (var socket =
            (SSLSocket)
                context(clientLeaf, clientTrusts)
                    .getSocketFactory()
                    .createSocket(raw, host, server.getLocalPort(), true)) {
          var parameters = socket.getSSLParameters();
          parameters.setEndpointIdentificationAlgorithm("HTTPS"); // check the name, as HTTPS does
          socket.setSSLParameters(parameters);
          socket.startHandshake();
          socket.getOutputStream().write(42);
          socket.getOutputStream().flush();
          int echoed = socket.getInputStream().read();
          if (echoed != 42) {
            throw new IOException("the server closed the connection: " + echoed);
          }
        }
      }
      return served.get(10, TimeUnit.SECONDS);
    }
  }

  private static SSLContext context(IssuedCertificate own, List<X509Certificate> trusted)
      throws Exception {
    var keys = KeyStore.getInstance("PKCS12");
    keys.load(null, null);
    keys.setKeyEntry("node", own.privateKey(), PASSWORD, new Certificate[] {own.certificate()});
    var keyManagers = KeyManagerFactory.getInstance("PKIX");
    keyManagers.init(keys, PASSWORD);
    var trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    for (int i = 0; i < trusted.size(); i++) {
      trust.setCertificateEntry("ca-" + i, trusted.get(i));
    }
    var trustManagers = TrustManagerFactory.getInstance("PKIX");
    trustManagers.init(trust);
    var context = SSLContext.getInstance("TLSv1.3");
    context.init(keyManagers.getKeyManagers(), trustManagers.getTrustManagers(), null);
    return context;
  }
}
