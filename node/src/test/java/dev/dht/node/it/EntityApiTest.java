package dev.dht.node.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.node.it.DhtClient.Reply;
import java.io.ByteArrayInputStream;
import java.net.http.HttpRequest.BodyPublishers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** API.md §1, §2 and §5 on a healthy 3-node cluster: statuses, values, ack/from validation. */
class EntityApiTest {
  @TempDir static Path root;
  static LocalCluster cluster;

  @BeforeAll
  static void startCluster() {
    cluster = LocalCluster.start(root, 3, LocalCluster.secretFlags(root, "entity-api-secret"));
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  private static DhtClient node(int i) {
    return cluster.client(i);
  }

  @Test
  void putAnswers201AndEveryNodeReadsTheValue() {
    Reply put = node(0).put("hello", "world");
    assertThat(put.status()).isEqualTo(201);
    for (int i = 0; i < 3; i++) {
      Reply get = node(i).get("hello");
      assertThat(get.status()).as("GET via node %d", i).isEqualTo(200);
      assertThat(get.text()).isEqualTo("world");
    }
  }

  @Test
  void getOfAKeyNeverWrittenIs404() {
    for (int i = 0; i < 3; i++) {
      assertThat(node(i).get("never-written").status()).isEqualTo(404);
    }
  }

  @Test
  void emptyValueIsAValueDistinctFromAbsent() {
    assertThat(node(0).put("empty", new byte[0]).status()).isEqualTo(201);
    for (int i = 0; i < 3; i++) {
      Reply get = node(i).get("empty", 3, 3);
      assertThat(get.status()).as("GET via node %d", i).isEqualTo(200);
      assertThat(get.body()).isEmpty();
    }
    assertThat(node(1).delete("empty").status()).isEqualTo(202);
    assertThat(node(2).get("empty", 3, 3).status()).isEqualTo(404);
  }

  @Test
  void anOverwriteIsReadBackAsTheNewestValue() {
    for (int version = 1; version <= 5; version++) {
      assertThat(node(version % 3).put("upsert", "v" + version).status()).isEqualTo(201);
    }
    for (int i = 0; i < 3; i++) {
      assertThat(node(i).get("upsert", 3, 3).text()).isEqualTo("v5");
    }
    assertThat(node(0).put("upsert", "longer value than before").status()).isEqualTo(201);
    assertThat(node(0).put("upsert", "x").status()).isEqualTo(201);
    assertThat(node(2).get("upsert").text()).isEqualTo("x");
  }

  @Test
  void aDeletedKeyIs404OnEveryNode() {
    assertThat(node(0).put("to-delete", "value").status()).isEqualTo(201);
    Reply delete = node(1).delete("to-delete");
    assertThat(delete.status()).isEqualTo(202);
    for (int i = 0; i < 3; i++) {
      assertThat(node(i).get("to-delete", 3, 3).status()).as("GET via node %d", i).isEqualTo(404);
    }
  }

  @Test
  void deletingAKeyThatNeverExistedIs202AndItStays404() {
    assertThat(node(2).delete("never-existed").status()).isEqualTo(202);
    assertThat(node(0).get("never-existed", 3, 3).status()).isEqualTo(404);
  }

  @Test
  void aDeletedKeyCanBeWrittenAgain() {
    assertThat(node(0).put("again", "first").status()).isEqualTo(201);
    assertThat(node(1).delete("again").status()).isEqualTo(202);
    assertThat(node(2).put("again", "second").status()).isEqualTo(201);
    assertThat(node(0).get("again", 3, 3).text()).isEqualTo("second");
  }

  @Test
  void entryIsAnAliasOfEntity() {
    String key = DhtClient.encode("alias-key");
    Reply put = node(0).send("PUT", "/v0/entry?id=" + key, BodyPublishers.ofString("via entry"));
    assertThat(put.status()).isEqualTo(201);
    assertThat(node(1).get("alias-key").text()).isEqualTo("via entry");
    Reply get = node(2).send("GET", "/v0/entry?id=" + key, BodyPublishers.noBody());
    assertThat(get.status()).isEqualTo(200);
    assertThat(get.text()).isEqualTo("via entry");
    assertThat(node(0).send("DELETE", "/v0/entry?id=" + key, BodyPublishers.noBody()).status())
        .isEqualTo(202);
    assertThat(node(1).send("GET", "/v0/entry?id=" + key, BodyPublishers.noBody()).status())
        .isEqualTo(404);
    assertThat(node(1).send("GET", "/v0/entry?id=", BodyPublishers.noBody()).status())
        .isEqualTo(400);
    assertThat(node(1).send("POST", "/v0/entry?id=" + key, BodyPublishers.noBody()).status())
        .isEqualTo(405);
    assertThat(
            node(1)
                .send("GET", "/v0/entry?id=" + key + "&ack=3&from=2", BodyPublishers.noBody())
                .status())
        .isEqualTo(400);
  }

  @Test
  void arbitraryBytesRoundTrip() {
    byte[] value = new byte[256 * 4];
    for (int i = 0; i < value.length; i++) {
      value[i] = (byte) i;
    }
    assertThat(node(0).put("binary", value).status()).isEqualTo(201);
    assertThat(node(1).get("binary").body()).isEqualTo(value);
  }

  @Test
  void keysArePercentDecodedUtf8() {
    String[] keys = {"a b", "a+b", "a%20b", "ä€😀", "k&ack=1", "slash/and?question#hash", "Key"};
    for (int i = 0; i < keys.length; i++) {
      assertThat(node(i % 3).put(keys[i], "value-" + i).status()).isEqualTo(201);
    }
    for (int i = 0; i < keys.length; i++) {
      assertThat(node((i + 1) % 3).get(keys[i]).text())
          .as("key '%s'", keys[i])
          .isEqualTo("value-" + i);
    }
    assertThat(node(0).get("key").status()).as("keys are case-sensitive").isEqualTo(404);
  }

  @Test
  void everyValidAckFromCombinationWorks() {
    for (int from = 1; from <= 3; from++) {
      for (int ack = 1; ack <= from; ack++) {
        String key = "combo-" + ack + "-" + from;
        assertThat(node(0).put(key, key, ack, from).status()).as("PUT %s", key).isEqualTo(201);
        // a read quorum that intersects the write's (ack=1 of 2 need not see an ack=1 write yet)
        Reply get = node(1).get(key, Math.max(ack, from - ack + 1), from);
        assertThat(get.status()).as("GET %s", key).isEqualTo(200);
        assertThat(get.text()).isEqualTo(key);
        assertThat(node(2).delete(key, ack, from).status()).as("DELETE %s", key).isEqualTo(202);
        assertThat(node(0).get(key, from, from).status()).isEqualTo(404);
      }
    }
  }

  static Stream<Arguments> missingOrEmptyId() {
    return Stream.of("GET", "PUT", "DELETE", "POST")
        .flatMap(method ->
            Stream.of(
                    "/v0/entity",
                    "/v0/entity?id=",
                    "/v0/entity?ack=1&from=1",
                    "/v0/entity?id=&ack=1&from=1",
                    "/v0/entry",
                    "/v0/entry?id=")
                .map(target -> Arguments.of(method, target)));
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("missingOrEmptyId")
  void aMissingOrEmptyIdIs400ForEveryMethod(String method, String target) {
    Reply reply = node(1).send(method, target, BodyPublishers.ofString("body"));
    assertThat(reply.status()).isEqualTo(400);
    assertThat(reply.text()).isNotBlank();
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "ack=x",
        "from=y",
        "ack=",
        "from=",
        "ack=-1",
        "ack=1.5",
        "ack=%201",
        "ack=0",
        "from=0",
        "ack=0&from=0",
        "ack=3&from=2",
        "ack=2&from=1",
        "from=4",
        "ack=4",
        "ack=1&from=4",
        "ack=99999999999999999999"
      })
  void invalidAckOrFromIs400AndWritesNothing(String params) {
    String target = "/v0/entity?id=" + DhtClient.encode("invalid-" + params) + "&" + params;
    for (String method : new String[] {"PUT", "GET", "DELETE"}) {
      Reply reply = node(0).send(method, target, BodyPublishers.ofString("value"));
      assertThat(reply.status()).as("%s %s", method, target).isEqualTo(400);
      assertThat(reply.text()).isNotBlank();
    }
    assertThat(node(1).get("invalid-" + params, 3, 3).status()).isEqualTo(404);
  }

  @Test
  void onlyAckGivenTakesTheDefaultFromWhichIsTheClusterSize() {
    // ack=3 is only valid when from defaults to N = 3
    assertThat(node(0).put("ack-only", "v", 3, null).status()).isEqualTo(201);
    assertThat(node(1).get("ack-only", 3, null).text()).isEqualTo("v");
  }

  @Test
  void postOnAnEntityIs405AndStoresNothing() {
    for (String method : new String[] {"POST", "PATCH"}) {
      Reply reply = node(0).send(method, "/v0/entity?id=posted", BodyPublishers.ofString("value"));
      assertThat(reply.status()).as(method).isEqualTo(405);
      assertThat(reply.text()).isNotBlank();
    }
    assertThat(node(1).get("posted", 3, 3).status()).isEqualTo(404);
  }

  @Test
  void aChunkedUploadIsAValueLikeAnyOther() {
    byte[] value = "sent in chunks".repeat(100).getBytes(StandardCharsets.UTF_8);
    Reply put =
        node(0)
            .send(
                "PUT",
                "/v0/entity?id=chunked-upload",
                BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(value)));
    assertThat(put.status()).isEqualTo(201);
    assertThat(node(2).get("chunked-upload").body()).isEqualTo(value);
  }

  @Test
  void serviceEndpointsAnswer200() {
    for (int i = 0; i < 3; i++) {
      for (String path : new String[] {"/v0/status", "/health/live", "/health/ready"}) {
        assertThat(node(i).send("GET", path, BodyPublishers.noBody()).status())
            .as("%s on node %d", path, i)
            .isEqualTo(200);
      }
    }
  }

  @Test
  void metricsCountRequestsByOperationAndStatusAndShowRocksDb() {
    node(2).put("metrics-key", "v");
    node(2).get("metrics-key");
    node(2).get("metrics-missing");
    node(2).delete("metrics-key");
    Reply metrics = node(2).send("GET", "/metrics", BodyPublishers.noBody());
    assertThat(metrics.status()).isEqualTo(200);
    assertThat(metrics.text())
        .contains("dht_requests")
        .containsPattern("dht_requests\\w*_count\\{[^}]*operation=\"put\"[^}]*status=\"201\"")
        .containsPattern("dht_requests\\w*_count\\{[^}]*operation=\"get\"[^}]*status=\"200\"")
        .containsPattern("dht_requests\\w*_count\\{[^}]*operation=\"get\"[^}]*status=\"404\"")
        .containsPattern("dht_requests\\w*_count\\{[^}]*operation=\"delete\"[^}]*status=\"202\"")
        .containsPattern("(?m)^dht_rocksdb_estimated_keys\\S* [0-9.eE+]+$")
        .contains("dht_rocksdb_ticker")
        .contains("dht_replica_hops")
        .contains("dht_inflight_requests");
  }
}
