package dev.dht.node.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.dht.contract.AdminStatus;
import dev.dht.contract.UsersDocument;
import dev.dht.contract.UsersDocument.Acl;
import dev.dht.contract.UsersDocument.Authentication;
import dev.dht.contract.UsersDocument.Operation;
import dev.dht.contract.UsersDocument.User;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three nodes that require client authentication, asked with the JDK's HTTP client at its defaults:
 * who may do what on which keys, quotas, and a users document replaced while they run, by its file
 * and by an admin push. Writes go 3/3, so replication between the nodes works with it on.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClientAuthClusterTest {
  private static final String APP = "app-token-4f1c";
  private static final String READER = "reader-token-9a2e";
  private static final String TINY = "tiny-token-77b0";
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @TempDir static Path root;
  private static Path usersFile;
  private static LocalCluster cluster;

  @BeforeAll
  static void start() throws IOException {
    usersFile = root.resolve("users.json");
    write(document(1, true));
    cluster = LocalCluster.start(root, 3, "--users-file", usersFile.toString());
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  /**
   * {@code app} may do anything under {@code app/}, {@code reader} may read every key, {@code tiny}
   * may read {@code app/} once a second; with {@code withReader} false, reader is gone.
   */
  private static UsersDocument document(long revision, boolean withReader) {
    List<User> users = new ArrayList<>();
    users.add(
        new User(
            "app",
            UsersDocument.sha256Hex(APP),
            null,
            List.of(new Acl("app/", Set.of(Operation.values()))),
            0));
    if (withReader) {
      users.add(
          new User(
              "reader",
              UsersDocument.sha256Hex(READER),
              null,
              List.of(new Acl("", Set.of(Operation.READ))),
              0));
    }
    users.add(
        new User(
            "tiny",
            UsersDocument.sha256Hex(TINY),
            null,
            List.of(new Acl("app/", Set.of(Operation.READ))),
            1));
    return new UsersDocument(revision, Authentication.REQUIRED, users);
  }

  @Test
  @Order(1)
  void withoutAKnownTokenNothingGetsIn() {
    var none = send(0, "GET", "/v0/entity?id=app/k", null, null);
    assertThat(none.statusCode()).isEqualTo(401);
    assertThat(none.headers().firstValue("WWW-Authenticate")).hasValue("Bearer realm=\"dht\"");
    assertThat(none.body()).isEqualTo("missing credentials: send Authorization: Bearer <token>\n");

    var put = send(0, "PUT", "/v0/entity?id=app/k", null, "a body nobody reads");
    assertThat(put.statusCode()).as("a write's body is not read").isEqualTo(401);

    var unknown = send(1, "GET", "/v0/entity?id=app/k", "not-a-token-of-anyone", null);
    assertThat(unknown.statusCode()).isEqualTo(401);
    assertThat(unknown.body()).isEqualTo("unknown token\n").doesNotContain("not-a-token");

    var basic = sendWith(2, "GET", "/v0/entity?id=app/k", "Basic YXBwOnNlY3JldA==", null);
    assertThat(basic.statusCode()).isEqualTo(401);
    assertThat(basic.body()).contains("not 'Bearer <token>'");

    assertThat(send(0, "GET", "/v0/status", null, null).statusCode()).isEqualTo(401);
    assertThat(send(0, "GET", "/v0/status", APP, null).statusCode()).isEqualTo(200);
    assertThat(send(0, "GET", "/v0/entities?start=app/&end=app0", null, null).statusCode())
        .isEqualTo(401);
    assertThat(metric(0, "reason=\"missing\"")).isEqualTo(4);
    assertThat(metric(1, "reason=\"unknown-token\"")).isEqualTo(1);
  }

  @Test
  @Order(2)
  void aUserDoesWhatItsAclsGrantAndWritesReplicate() {
    assertThat(send(0, "PUT", "/v0/entity?id=app/k1&ack=3&from=3", APP, "v1").statusCode())
        .as("a 3/3 write: every peer took its replica")
        .isEqualTo(201);
    var read = send(1, "GET", "/v0/entity?id=app/k1&ack=3&from=3", APP, null);
    assertThat(read.statusCode()).isEqualTo(200);
    assertThat(read.body()).isEqualTo("v1");
    assertThat(send(2, "GET", "/v0/entity?id=app/k1", READER, null).body()).isEqualTo("v1");

    var outside = send(0, "PUT", "/v0/entity?id=other/k1", APP, "v");
    assertThat(outside.statusCode()).isEqualTo(403);
    assertThat(outside.body())
        .isEqualTo("user app may not write this key: write is allowed on prefixes [app/]\n");
    var readerWrites = send(0, "DELETE", "/v0/entity?id=app/k1", READER, null);
    assertThat(readerWrites.statusCode()).isEqualTo(403);
    assertThat(readerWrites.body()).contains("user reader may not delete this key");
    assertThat(send(0, "GET", "/v0/entity?id=%C3%BC/k", APP, null).statusCode())
        .as("a key outside app/, in UTF-8")
        .isEqualTo(403);
    assertThat(send(1, "PUT", "/v0/entity?id=app/%C3%BC", APP, "ü").statusCode()).isEqualTo(201);
    assertThat(send(1, "DELETE", "/v0/entity?id=app/%C3%BC", APP, null).statusCode())
        .isEqualTo(202);
    assertThat(metric(0, "reason=\"forbidden\"")).isEqualTo(3);
  }

  @Test
  @Order(3)
  void aRangeMustLieWithinAPrefix() {
    var inside = send(2, "GET", "/v0/entities?start=app/&end=app0", APP, null);
    assertThat(inside.statusCode()).isEqualTo(200);
    assertThat(inside.body()).contains("app/k1\nv1");
    assertThat(send(2, "GET", "/v0/entities?start=app/a&end=app/z", APP, null).statusCode())
        .isEqualTo(200);
    var beyond = send(2, "GET", "/v0/entities?start=app/&end=b", APP, null);
    assertThat(beyond.statusCode()).isEqualTo(403);
    assertThat(beyond.body())
        .startsWith("user app may not read this range: range is allowed on prefixes [app/]");
    assertThat(send(2, "GET", "/v0/entities?start=app/", APP, null).statusCode())
        .as("no end: every key after app/")
        .isEqualTo(403);
    assertThat(send(2, "GET", "/v0/entities?start=a&end=app/z", APP, null).statusCode())
        .as("starts before app/")
        .isEqualTo(403);
    assertThat(send(2, "GET", "/v0/entities?start=app/", READER, null).statusCode())
        .as("reader may read every key, but not ranges")
        .isEqualTo(403);
  }

  @Test
  @Order(4)
  void aUserOverItsQuotaIsToldWhenToComeBack() {
    List<HttpResponse<String>> answers = new ArrayList<>();
    for (int i = 0; i < 20; i++) { // one a second allowed: 20 in a row take less than a second
      answers.add(send(1, "GET", "/v0/entity?id=app/k1", TINY, null));
    }
    assertThat(answers.getFirst().statusCode()).isEqualTo(200);
    var refused = answers.stream().filter(a -> a.statusCode() == 429).findFirst();
    assertThat(refused)
        .as("statuses %s", answers.stream().map(HttpResponse::statusCode).toList())
        .isPresent();
    assertThat(refused.get().headers().firstValue("Retry-After")).hasValue("1");
    assertThat(refused.get().body())
        .startsWith("user tiny is over its quota of 1 requests a second on this node");
    assertThat(answers.stream().allMatch(a -> a.statusCode() == 200 || a.statusCode() == 429))
        .isTrue();
    assertThat(metric(1, "reason=\"over-quota\"")).isPositive();
    assertThat(send(2, "GET", "/v0/entity?id=app/k1", TINY, null).statusCode())
        .as("a quota per node: another node's is full")
        .isEqualTo(200);
  }

  @Test
  @Order(5)
  void aNewRevisionOfTheFileIsTakenWithinSeconds() throws IOException {
    write(document(2, false));
    await("every node took revision 2 of the users file")
        .atMost(Duration.ofSeconds(10))
        .pollInterval(Duration.ofMillis(200))
        .until(() ->
            IntStream.range(0, 3)
                .allMatch(
                    i -> send(i, "GET", "/v0/entity?id=app/k1", READER, null).statusCode() == 401));
    for (int i = 0; i < 3; i++) {
      AdminStatus status = status(i);
      assertThat(status.usersRevision()).isEqualTo(2);
      assertThat(status.authentication()).isEqualTo("required");
      assertThat(send(i, "GET", "/v0/entity?id=app/k1", APP, null).statusCode()).isEqualTo(200);
    }
  }

  @Test
  @Order(6)
  void aPushRevokesAtOnceAndALowerRevisionIsNotApplied() throws Exception {
    UsersDocument withoutApp =
        new UsersDocument(
            3,
            Authentication.REQUIRED,
            document(3, false).users().stream().filter(u -> !u.name().equals("app")).toList());
    var pushed = push(0, withoutApp.toJson(), true);
    assertThat(pushed.status()).isEqualTo(200);
    assertThat(new JsonObject(pushed.text()))
        .isEqualTo(new JsonObject().put("revision", 3).put("applied", true));
    assertThat(send(0, "GET", "/v0/entity?id=app/k1", APP, null).statusCode())
        .as("revoked on the node it was pushed to, at once")
        .isEqualTo(401);
    assertThat(send(1, "GET", "/v0/entity?id=app/k1", APP, null).statusCode())
        .as("the others wait for their push or the file")
        .isEqualTo(200);

    var older = push(0, document(2, true).toJson(), true);
    assertThat(older.status()).isEqualTo(200);
    assertThat(new JsonObject(older.text()))
        .isEqualTo(new JsonObject().put("revision", 3).put("applied", false));
    assertThat(send(0, "GET", "/v0/entity?id=app/k1", READER, null).statusCode())
        .as("reader of revision 2 stays out")
        .isEqualTo(401);

    var invalid = push(0, "{\"revision\": 9, \"authentication\": \"maybe\"}", true);
    assertThat(invalid.status()).isEqualTo(400);
    assertThat(invalid.text()).contains("authentication: must be");
    assertThat(push(0, withoutApp.toJson(), false).status())
        .as("a push needs the admin's credentials")
        .isEqualTo(401);
    assertThat(status(0).usersRevision()).isEqualTo(3);

    // the file (revision 2, read again as it changed) does not bring app back
    write(document(2, true));
    Thread.sleep(2_500); // two re-reads of the file: a negative, so waited for
    assertThat(send(0, "GET", "/v0/entity?id=app/k1", APP, null).statusCode()).isEqualTo(401);
    assertThat(status(0).usersRevision()).isEqualTo(3);
    write(document(4, true));
    await("the file's revision 4 on the node that was pushed 3")
        .atMost(Duration.ofSeconds(10))
        .until(() -> status(0).usersRevision() == 4);
    assertThat(send(0, "GET", "/v0/entity?id=app/k1", APP, null).statusCode()).isEqualTo(200);
  }

  @Test
  @Order(7)
  void aDocumentMayTurnAuthenticationOff() {
    var pushed = push(2, new UsersDocument(5, Authentication.NONE, List.of()).toJson(), true);
    assertThat(pushed.status()).isEqualTo(200);
    assertThat(send(2, "PUT", "/v0/entity?id=anything&ack=1&from=3", null, "v").statusCode())
        .isEqualTo(201);
    assertThat(status(2).authentication()).isEqualTo("none");
  }

  private static AdminStatus status(int node) {
    return AdminStatus.fromJson(
        cluster.client(node).send("GET", "/v0/admin/status", BodyPublishers.noBody()).text());
  }

  private static DhtClient.Reply push(int node, String json, boolean withSecret) {
    return cluster
        .client(node)
        .send(
            "PUT",
            "/v0/admin/users",
            BodyPublishers.ofString(json),
            withSecret ? Map.of() : Map.of("X-Dht-Cluster-Secret", "wrong"));
  }

  private static double metric(int node, String label) {
    return MetricsText.of(cluster.client(node)).value("dht_client_refusals_total", label);
  }

  /** A request with {@code token} as a bearer token (null: none), {@code body} if not null. */
  private static HttpResponse<String> send(
      int node, String method, String target, String token, String body) {
    return sendWith(node, method, target, token == null ? null : "Bearer " + token, body);
  }

  private static HttpResponse<String> sendWith(
      int node, String method, String target, String authorization, String body) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(cluster.url(node) + target))
            .timeout(Duration.ofSeconds(10))
            .method(method, body == null ? BodyPublishers.noBody() : BodyPublishers.ofString(body));
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    try {
      return HTTP.send(request.build(), BodyHandlers.ofString());
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Replaces the users file at once, as a Secret volume's update does. */
  private static void write(UsersDocument document) throws IOException {
    Path temporary = Files.writeString(root.resolve("users.json.new"), document.toJson());
    Files.move(
        temporary, usersFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }
}
