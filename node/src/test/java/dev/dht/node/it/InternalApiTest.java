package dev.dht.node.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.node.it.DhtClient.Reply;
import java.net.http.HttpRequest.BodyPublishers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * API.md §6: with a cluster secret, anything under the internal prefix answers 403 without the
 * secret or with a wrong one, no public path reaches it, and peers really check it (a node with
 * another secret cannot replicate). Written against the prefix, not the internal wire format.
 */
class InternalApiTest {
  private static final String SECRET = "internal-api-test-secret";
  private static final String HEADER = "X-Dht-Cluster-Secret";
  private static final String[] INTERNAL_TARGETS = {
    "/internal/v0/batch",
    "/internal/v0/entry?id=guarded",
    "/internal/",
    "/internal/anything",
    "/internal/v0/repair/files?peer=x&from=2&stream=1"
  };

  @TempDir static Path root;
  static LocalCluster cluster;

  @BeforeAll
  static void startCluster() {
    cluster = LocalCluster.start(root, 3, LocalCluster.secretFlags(root, SECRET));
    assertThat(cluster.client(0).put("guarded", "original", 3, 3).status()).isEqualTo(201);
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  private static void assertStillOriginal() {
    Reply get = cluster.client(1).get("guarded", 3, 3);
    assertThat(get.status()).isEqualTo(200);
    assertThat(get.text()).isEqualTo("original");
  }

  @Test
  void theInternalApiAnswers403WithoutTheRightSecret() {
    byte[] garbage = "not a replica message".getBytes();
    for (int i = 0; i < 3; i++) {
      for (String target : INTERNAL_TARGETS) {
        for (String method : new String[] {"GET", "PUT", "POST", "DELETE"}) {
          for (Map<String, String> headers :
              new Map[] {
                Map.of(), Map.of(HEADER, "wrong"), Map.of(HEADER, SECRET + "x"), Map.of(HEADER, "")
              }) {
            Reply reply =
                cluster
                    .client(i)
                    .send(method, target, BodyPublishers.ofByteArray(garbage), headers);
            assertThat(reply.status())
                .as("%s %s %s on node %d", method, target, headers, i)
                .isEqualTo(403);
            assertThat(reply.text()).isNotBlank();
          }
        }
      }
    }
    assertStillOriginal();
  }

  @Test
  void theRightSecretGetsPastTheCheck() {
    // an unknown internal path with the secret is a 4xx of its own, not 403
    Reply reply =
        cluster
            .client(0)
            .send(
                "GET",
                "/internal/v0/no-such-thing",
                BodyPublishers.noBody(),
                Map.of(HEADER, SECRET));
    assertThat(reply.status()).isNotEqualTo(403).isBetween(400, 499);
  }

  @Test
  void aBadRequestForAStreamFileGetsItsReasonAndNoFile() {
    String peer =
        java.net.URLEncoder.encode(cluster.url(1), java.nio.charset.StandardCharsets.UTF_8);
    String admin =
        cluster
            .client(0)
            .send("GET", "/v0/admin/status", BodyPublishers.noBody(), Map.of(HEADER, SECRET))
            .text();
    long epoch = new io.vertx.core.json.JsonObject(admin).getLong("epoch");
    Map<String, Integer> statusByQuery =
        Map.of(
            "?peer=" + peer + "&from=2", 400, // not a stream: files are for streams only
            "?peer=" + peer + "&from=2&stream=" + (epoch + 7), 409, // another epoch
            "?peer=" + peer + "&from=2&stream=" + epoch + "&start=zz", 400, // not hex
            "?peer=http%3A%2F%2Fnobody%3A1&from=2&stream=" + epoch, 400, // not a member
            "?peer=" + peer + "&from=9&stream=" + epoch, 400); // no such replication
    statusByQuery.forEach((query, expected) -> {
      Reply reply =
          cluster
              .client(0)
              .send(
                  "POST",
                  "/internal/v0/repair/files" + query,
                  BodyPublishers.noBody(),
                  Map.of(HEADER, SECRET));
      assertThat(reply.status()).as(query).isEqualTo(expected);
      assertThat(reply.text()).as(query).isNotBlank();
    });
    assertStillOriginal();
  }

  @Test
  void aPeerWithAnotherSecretCannotReplicate() throws Exception {
    Path other = root.resolve("other-secret");
    Files.writeString(other, "not-the-cluster-secret\n");
    cluster.stop(2);
    cluster.start(2, "--cluster-secret-file", other.toString());
    try {
      // node 0 -> node 2 and node 2 -> nodes 0, 1 are refused, so no write reaches 3 replicas
      assertThat(cluster.client(0).put("mismatch", "v", 3, 3).status()).isEqualTo(504);
      assertThat(cluster.client(2).put("mismatch", "v", 2, 3).status()).isEqualTo(504);
      assertThat(cluster.client(2).get("guarded", 2, 3).status()).isEqualTo(504);
      assertThat(cluster.client(0).put("mismatch", "v", 2, 3).status()).isEqualTo(201);
    } finally {
      cluster.stop(2);
      cluster.start(2);
    }
    assertThat(cluster.client(2).put("matched", "v", 3, 3).status()).isEqualTo(201);
    assertThat(cluster.client(2).get("guarded", 3, 3).text()).isEqualTo("original");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "/v0/entity/../../internal/v0/batch",
        "/v0/../internal/v0/batch",
        "/v0/%2E%2E/internal/v0/batch",
        "/./internal/v0/batch",
        "//internal/v0/batch",
        "/%69nternal/v0/batch",
        "/%2Finternal/v0/batch",
        "/INTERNAL/v0/batch",
        "/internal",
        "/v0/internal/v0/batch",
        "/v0/entity/../../internal/v0/entry?id=guarded",
        "/%69nternal/v0/entry?id=guarded"
      })
  void publicPathsNeverReachTheInternalHandlers(String target) {
    for (int i = 0; i < 3; i++) {
      for (String method : new String[] {"GET", "PUT", "POST"}) {
        RawHttp.Response reply =
            RawHttp.exchange(cluster.port(i), method, target, "forged".getBytes());
        assertThat(reply.status()).as("%s %s", method, target).isEqualTo(400);
      }
    }
    assertStillOriginal();
  }

  @Test
  void anAbsoluteFormTargetIsRoutedByItsPathToo() {
    String target = "http://127.0.0.1:" + cluster.port(0) + "/internal/v0/batch";
    assertThat(RawHttp.exchange(cluster.port(0), "POST", target, new byte[] {1}).status())
        .isEqualTo(403);
  }
}
