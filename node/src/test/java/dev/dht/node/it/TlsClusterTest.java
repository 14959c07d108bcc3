package dev.dht.node.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.dht.node.Node;
import dev.dht.node.NodeOptions;
import dev.dht.pki.CertificateAuthority;
import dev.dht.pki.IssuedCertificate;
import dev.dht.pki.LeafRequest;
import dev.dht.pki.Pem;
import dev.dht.pki.Validity;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three nodes with TLS, on 127.0.0.1-3 (the peer port is the same number on every member): clients
 * over TLS with standard clients (the JDK's, curl), peers over mutual TLS, plain HTTP and foreign
 * certificates refused, admin requests only with credentials, and a CA rotation taken while the
 * nodes run.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TlsClusterTest {
  private static final String SECRET = "tls-test-secret";
  private static final Validity VALID =
      Validity.of(Instant.now().minus(Duration.ofHours(1)), Duration.ofDays(2));

  @TempDir static Path root;
  private static final int CLIENT = Ports.free();
  private static final int PEER = Ports.free();
  private static final int ADMIN = Ports.free();
  private static final List<Node> nodes = new ArrayList<>();
  private static CertificateAuthority ca;
  private static Path tls;

  @BeforeAll
  static void startThreeNodes() throws Exception {
    tls = Files.createDirectories(root.resolve("tls"));
    ca = CertificateAuthority.generate("dht test CA 1", VALID);
    write("ca.crt", Pem.certificate(ca.certificate()));
    writeLeaf(ca.issue(nodeCertificate()));
    Path secret = Files.writeString(root.resolve("secret"), SECRET);
    List<String> members = List.of(member(1), member(2), member(3));
    for (int i = 1; i <= 3; i++) {
      nodes.add(
          Node.start(
              NodeOptions.parse(
                  "--self=" + member(i),
                  "--cluster=" + String.join(",", members),
                  "--listen-address=127.0.0." + i,
                  "--port=" + CLIENT,
                  "--peer-port=" + PEER,
                  "--admin-port=" + ADMIN,
                  "--tls-cert-file=" + tls.resolve("tls.crt"),
                  "--tls-key-file=" + tls.resolve("tls.key"),
                  "--tls-ca-file=" + tls.resolve("ca.crt"),
                  "--cluster-secret-file=" + secret,
                  "--data-dir=" + root.resolve("node-" + i),
                  "--event-loops=1",
                  "--storage-threads=2",
                  "--block-cache-mb=8")));
    }
  }

  @AfterAll
  static void stop() {
    nodes.forEach(Node::close);
  }

  @Test
  @Order(1)
  void clientsUseTlsAndPeersReplicateOverMutualTls() throws Exception {
    HttpClient client = client(ca.certificate(), null);
    var put =
        client.send(
            request("https://127.0.0.1:" + CLIENT + "/v0/entity?id=k1&ack=3&from=3")
                .PUT(BodyPublishers.ofString("v1"))
                .build(),
            BodyHandlers.ofString());
    assertThat(put.statusCode()).as("a 3/3 write: every peer took its replica").isEqualTo(201);
    var get =
        client.send(
            request("https://127.0.0.2:" + CLIENT + "/v0/entity?id=k1&ack=3&from=3").build(),
            BodyHandlers.ofString());
    assertThat(get.statusCode()).isEqualTo(200);
    assertThat(get.body()).isEqualTo("v1");

    Path caFile = tls.resolve("ca.crt");
    Process curl =
        new ProcessBuilder(
                "curl",
                "-sS",
                "--cacert",
                caFile.toString(),
                "https://127.0.0.3:" + CLIENT + "/v0/entity?id=k1&ack=2&from=3")
            .redirectErrorStream(true)
            .start();
    assertThat(curl.waitFor(20, TimeUnit.SECONDS)).isTrue();
    assertThat(new String(curl.getInputStream().readAllBytes(), StandardCharsets.UTF_8))
        .as("curl --cacert")
        .isEqualTo("v1");
  }

  @Test
  @Order(2)
  void plainHttpAndUntrustedCertificatesAreRefused() throws Exception {
    assertThat(status(HttpClient.newHttpClient(), "http://127.0.0.1:" + CLIENT + "/v0/status"))
        .as("plain HTTP to the TLS client port")
        .isNotEqualTo(200);
    assertThat(
            status(HttpClient.newHttpClient(), "http://127.0.0.1:" + PEER + "/internal/v0/clock"))
        .as("plain HTTP to the peer port")
        .isNotEqualTo(204);

    String clock = "https://127.0.0.1:" + PEER + "/internal/v0/clock";
    assertThat(status(client(ca.certificate(), null), clock))
        .as("no client certificate on the peer port")
        .isEqualTo(-1);
    var foreignCa = CertificateAuthority.generate("someone else's CA", VALID);
    assertThat(status(client(ca.certificate(), foreignCa.issue(nodeCertificate())), clock))
        .as("a certificate of another CA, with the right names")
        .isEqualTo(-1);
    assertThat(status(client(ca.certificate(), ca.issue(nodeCertificate())), clock))
        .as("a certificate of the cluster's CA: a peer, without the secret")
        .isEqualTo(204);
  }

  @Test
  @Order(3)
  void eachPortServesItsRoleAndAdminRequestsNeedCredentials() throws Exception {
    HttpClient client = client(ca.certificate(), null);
    String admin = "https://127.0.0.1:" + ADMIN;
    assertThat(status(client, admin + "/v0/admin/status")).as("no credentials").isEqualTo(401);
    var withSecret =
        client.send(
            request(admin + "/v0/admin/status").header("X-Dht-Cluster-Secret", SECRET).build(),
            BodyHandlers.ofString());
    assertThat(withSecret.statusCode()).isEqualTo(200);
    assertThat(status(client, admin + "/health/ready")).isEqualTo(200);
    assertThat(status(client, admin + "/metrics")).isEqualTo(200);
    assertThat(status(client, admin + "/v0/entity?id=k1")).as("not a client port").isEqualTo(404);
    assertThat(status(client, "https://127.0.0.1:" + CLIENT + "/v0/admin/status"))
        .as("admin requests are not served on the client port")
        .isEqualTo(404);
    assertThat(status(client, "https://127.0.0.1:" + CLIENT + "/internal/v0/clock"))
        .as("nor peer requests")
        .isEqualTo(404);
  }

  /**
   * A CA rotation, as the operator runs it: both CAs trusted, then the nodes' certificate renewed
   * by the new CA, then the old CA dropped, the nodes running all along and writes going through.
   */
  @Test
  @Order(4)
  void aCaRotationTakesNoRestart() throws Exception {
    var next = CertificateAuthority.generate("dht test CA 2", VALID);
    write("ca.crt", Pem.certificates(List.of(ca.certificate(), next.certificate())));
    writeLeaf(next.issue(nodeCertificate()));
    HttpClient trustsOnlyTheNewCa = client(next.certificate(), null);
    HttpClient newPeer = client(next.certificate(), next.issue(nodeCertificate()));
    IssuedCertificate oldLeaf = ca.issue(nodeCertificate());
    // each node re-reads its files on its own second: wait for all three, on both ports
    await("every node serves the new CA's certificate and trusts both CAs")
        .atMost(Duration.ofSeconds(10))
        .until(() ->
            everyNode(i ->
                status(trustsOnlyTheNewCa, client(i) + "/v0/status") == 200
                    && status(newPeer, clock(i)) == 204));
    // a peer of the old CA, connected while both are trusted: its connection stays open
    HttpClient oldPeer = client(next.certificate(), oldLeaf);
    assertThat(status(oldPeer, clock(1))).isEqualTo(204);
    write("ca.crt", Pem.certificate(next.certificate()));
    // each try is a new client, so a new handshake
    await("no node trusts the old CA any more")
        .atMost(Duration.ofSeconds(10))
        .until(
            () -> everyNode(i -> status(newClient(next.certificate(), oldLeaf), clock(i)) == -1));
    // TLS checks a client once, at its handshake: the node closed the connection made before
    assertThat(status(oldPeer, clock(1)))
        .as("the old CA's peer, on its open connection")
        .isEqualTo(-1);
    assertThat(status(newPeer, clock(1))).isEqualTo(204);
    var put =
        trustsOnlyTheNewCa.send(
            request(client(2) + "/v0/entity?id=k2&ack=3&from=3")
                .PUT(BodyPublishers.ofString("v2"))
                .build(),
            BodyHandlers.ofString());
    assertThat(put.statusCode()).isEqualTo(201);
  }

  private static boolean everyNode(java.util.function.IntPredicate check) {
    return java.util.stream.IntStream.rangeClosed(1, 3).allMatch(check);
  }

  private static String client(int node) {
    return "https://127.0.0." + node + ":" + CLIENT;
  }

  private static String clock(int node) {
    return "https://127.0.0." + node + ":" + PEER + "/internal/v0/clock";
  }

  private static LeafRequest nodeCertificate() {
    return new LeafRequest(
        "dht node", List.of("localhost"), List.of("127.0.0.1", "127.0.0.2", "127.0.0.3"), VALID);
  }

  private static String member(int i) {
    return "http://127.0.0." + i + ":" + CLIENT;
  }

  private static void writeLeaf(IssuedCertificate leaf) throws IOException {
    // the key first: a node that reads between the two writes fails to load the pair and keeps
    // the old one until its next read
    write("tls.key", Pem.privateKey(leaf.privateKey()));
    write("tls.crt", Pem.certificate(leaf.certificate()));
  }

  /** Replaces a file at once, as a Secret volume's update does. */
  private static void write(String name, String content) throws IOException {
    Path temporary = Files.writeString(tls.resolve(name + ".new"), content);
    Files.move(
        temporary,
        tls.resolve(name),
        StandardCopyOption.REPLACE_EXISTING,
        StandardCopyOption.ATOMIC_MOVE);
  }

  private static HttpRequest.Builder request(String url) {
    return HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10));
  }

  /** The status of a GET; -1 if the connection or the TLS handshake failed. */
  private static int status(HttpClient client, String url) {
    try {
      return client.send(request(url).build(), BodyHandlers.discarding()).statusCode();
    } catch (IOException e) {
      return -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  private static HttpClient newClient(X509Certificate trusted, IssuedCertificate identity) {
    try {
      return client(trusted, identity);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** A JDK client trusting {@code trusted}, presenting {@code identity} if not null. */
  private static HttpClient client(X509Certificate trusted, IssuedCertificate identity)
      throws Exception {
    KeyStore trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    trust.setCertificateEntry("ca", trusted);
    TrustManagerFactory trustManagers =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trustManagers.init(trust);
    KeyManagerFactory keyManagers = null;
    if (identity != null) {
      KeyStore keys = KeyStore.getInstance("PKCS12");
      keys.load(null, null);
      keys.setKeyEntry(
          "me", identity.privateKey(), new char[0], new X509Certificate[] {identity.certificate()});
      keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      keyManagers.init(keys, new char[0]);
    }
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(
        keyManagers == null ? null : keyManagers.getKeyManagers(),
        trustManagers.getTrustManagers(),
        null);
    return HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1)
        .sslContext(context)
        .connectTimeout(Duration.ofSeconds(5))
        .build();
  }
}
