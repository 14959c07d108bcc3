package dev.dht.node.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.contract.UsersDocument;
import dev.dht.contract.UsersDocument.Acl;
import dev.dht.contract.UsersDocument.Authentication;
import dev.dht.contract.UsersDocument.Operation;
import dev.dht.contract.UsersDocument.User;
import dev.dht.node.Node;
import dev.dht.node.NodeOptions;
import dev.dht.pki.CertificateAuthority;
import dev.dht.pki.IssuedCertificate;
import dev.dht.pki.LeafRequest;
import dev.dht.pki.Pem;
import dev.dht.pki.Validity;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A TLS node that requires client authentication: a user proves who it is with a bearer token or
 * with a certificate of the cluster's CA that carries its user's common name; a client without a
 * certificate (the JDK's, curl) still connects to the client port, which asks for one but does not
 * demand it. Other certificates of the CA, the node's own included, are no user's.
 */
class TlsClientAuthTest {
  private static final String TOKEN = "tls-app-token-51d2";
  private static final Validity VALID =
      Validity.of(Instant.now().minus(Duration.ofHours(1)), Duration.ofDays(2));

  @TempDir static Path root;
  private static final int CLIENT = Ports.free();
  private static final int PEER = Ports.free();
  private static final int ADMIN = Ports.free();
  private static CertificateAuthority ca;
  private static Node node;

  @BeforeAll
  static void startOneNode() throws Exception {
    ca = CertificateAuthority.generate("dht test CA", VALID);
    IssuedCertificate leaf = ca.issue(nodeCertificate());
    Path caFile = Files.writeString(root.resolve("ca.crt"), Pem.certificate(ca.certificate()));
    Path key = Files.writeString(root.resolve("tls.key"), Pem.privateKey(leaf.privateKey()));
    Path cert = Files.writeString(root.resolve("tls.crt"), Pem.certificate(leaf.certificate()));
    UsersDocument users =
        new UsersDocument(
            1,
            Authentication.REQUIRED,
            List.of(
                new User(
                    "app",
                    UsersDocument.sha256Hex(TOKEN),
                    "dht-user.app",
                    List.of(new Acl("app/", Set.of(Operation.values()))),
                    0)));
    Path usersFile = Files.writeString(root.resolve("users.json"), users.toJson());
    node =
        Node.start(
            NodeOptions.parse(
                "--self=http://127.0.0.1:" + CLIENT,
                "--listen-address=127.0.0.1",
                "--port=" + CLIENT,
                "--peer-port=" + PEER,
                "--admin-port=" + ADMIN,
                "--tls-cert-file=" + cert,
                "--tls-key-file=" + key,
                "--tls-ca-file=" + caFile,
                "--users-file=" + usersFile,
                "--data-dir=" + root.resolve("data"),
                "--event-loops=1",
                "--storage-threads=2",
                "--block-cache-mb=8"));
  }

  @AfterAll
  static void stop() {
    if (node != null) {
      node.close();
    }
  }

  @Test
  void aPlainTlsClientAuthenticatesWithItsToken() throws Exception {
    HttpClient plain = client(null);
    var put = send(plain, "PUT", "/v0/entity?id=app/by-token", TOKEN, "v");
    assertThat(put.statusCode()).isEqualTo(201);
    assertThat(send(plain, "GET", "/v0/entity?id=app/by-token", TOKEN, null).body()).isEqualTo("v");
    var none = send(plain, "GET", "/v0/entity?id=app/by-token", null, null);
    assertThat(none.statusCode()).isEqualTo(401);
    assertThat(none.body()).startsWith("missing credentials");
  }

  @Test
  void aUsersCertificateIsItsCredential() throws Exception {
    HttpClient app = client(ca.issue(userCertificate("dht-user.app")));
    assertThat(send(app, "PUT", "/v0/entity?id=app/by-cert", null, "c").statusCode())
        .isEqualTo(201);
    assertThat(send(app, "GET", "/v0/entity?id=app/by-cert", null, null).body()).isEqualTo("c");
    var outside = send(app, "GET", "/v0/entity?id=other", null, null);
    assertThat(outside.statusCode()).isEqualTo(403);
    assertThat(outside.body()).startsWith("user app may not read this key");
    assertThat(send(app, "GET", "/v0/entity?id=app/by-cert", "wrong-token", null).statusCode())
        .as("a token sent decides, even over a user's certificate")
        .isEqualTo(401);

    var other =
        send(client(ca.issue(userCertificate("dht-user.other"))), "GET", "/v0/status", null, null);
    assertThat(other.statusCode()).isEqualTo(401);
    assertThat(other.body()).startsWith("unknown client certificate");
    assertThat(
            send(client(ca.issue(nodeCertificate())), "GET", "/v0/status", null, null).statusCode())
        .as("the nodes' own certificate is no user's")
        .isEqualTo(401);
  }

  /**
   * A user's certificate is of the cluster's CA, which the peer and admin ports trust: there it
   * must not pass for a node's, or a user could write any replica or run the admin's actions.
   */
  @Test
  void aUsersCertificateIsNoPeersAndNoAdmins() throws Exception {
    HttpClient user = client(ca.issue(userCertificate("dht-user.app")));
    HttpClient peer = client(ca.issue(nodeCertificate()));
    String clock = "https://127.0.0.1:" + PEER + "/internal/v0/clock";
    String status = "https://127.0.0.1:" + ADMIN + "/v0/admin/status";
    assertThat(get(peer, clock).statusCode()).as("a node's certificate").isEqualTo(204);
    assertThat(get(user, clock).statusCode()).isEqualTo(403);
    assertThat(get(peer, status).statusCode()).isEqualTo(200);
    assertThat(get(user, status).statusCode()).isEqualTo(401);
    // the same CA's certificate for other names (another cluster sharing an issuer) is no peer's
    HttpClient stranger =
        client(ca.issue(new LeafRequest("other node", List.of("*.other-peers.ns.svc"), VALID)));
    assertThat(get(stranger, clock).statusCode()).isEqualTo(403);
    assertThat(get(stranger, status).statusCode()).isEqualTo(401);
  }

  private static HttpResponse<String> get(HttpClient client, String url) throws Exception {
    return client.send(
        HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
        BodyHandlers.ofString());
  }

  @Test
  void curlWithACertificateOrAToken() throws Exception {
    IssuedCertificate user = ca.issue(userCertificate("dht-user.app"));
    Path cert = Files.writeString(root.resolve("user.crt"), Pem.certificate(user.certificate()));
    Path key = Files.writeString(root.resolve("user.key"), Pem.privateKey(user.privateKey()));
    String url = "https://127.0.0.1:" + CLIENT + "/v0/entity?id=app/curl";
    assertThat(
            curl(
                "-X",
                "PUT",
                "--data-binary",
                "x",
                "--cert",
                cert.toString(),
                "--key",
                key.toString(),
                url))
        .isEqualTo("201");
    assertThat(curl("-H", "Authorization: Bearer " + TOKEN, url)).isEqualTo("200");
    assertThat(curl(url)).isEqualTo("401");
  }

  /** {@code curl -s -o /dev/null -w %{http_code}} with the CA and {@code args}. */
  private static String curl(String... args) throws Exception {
    List<String> command =
        new ArrayList<>(
            List.of(
                "curl",
                "-sS",
                "-o",
                "/dev/null",
                "-w",
                "%{http_code}",
                "--cacert",
                root.resolve("ca.crt").toString()));
    command.addAll(List.of(args));
    Process curl = new ProcessBuilder(command).redirectErrorStream(true).start();
    assertThat(curl.waitFor(20, TimeUnit.SECONDS)).isTrue();
    return new String(curl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
  }

  private static HttpResponse<String> send(
      HttpClient client, String method, String target, String token, String body) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + CLIENT + target))
            .timeout(Duration.ofSeconds(10))
            .method(method, body == null ? BodyPublishers.noBody() : BodyPublishers.ofString(body));
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    return client.send(request.build(), BodyHandlers.ofString());
  }

  private static LeafRequest nodeCertificate() {
    return new LeafRequest("dht node", List.of("localhost"), List.of("127.0.0.1"), VALID);
  }

  private static LeafRequest userCertificate(String commonName) {
    return new LeafRequest(commonName, List.of(commonName), VALID);
  }

  /** A JDK client at its defaults but for trusting the CA and presenting {@code identity}. */
  private static HttpClient client(IssuedCertificate identity) throws Exception {
    KeyStore trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    trust.setCertificateEntry("ca", ca.certificate());
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
    return HttpClient.newBuilder().sslContext(context).build();
  }
}
