package dev.dht.node.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.node.it.DhtClient.Reply;
import java.io.ByteArrayInputStream;
import java.net.http.HttpRequest.BodyPublishers;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Malformed requests get the documented 4xx with a reason, store nothing, and the node keeps
 * serving afterwards (checked after every test). Values are limited to 1 KiB here.
 */
class BadInputTest {
  private static final int MAX_VALUE = 1024;
  private static final AtomicInteger probes = new AtomicInteger();

  @TempDir static Path root;
  static LocalCluster cluster;

  @BeforeAll
  static void startCluster() {
    cluster = LocalCluster.start(root, 3, "--max-value-bytes", Integer.toString(MAX_VALUE));
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  /** After every bad request: a normal write and read through every node still work. */
  @AfterEach
  void nodesStillServe() {
    for (int i = 0; i < cluster.size(); i++) {
      String key = "probe-" + probes.incrementAndGet();
      assertThat(cluster.client(i).put(key, "alive").status()).isEqualTo(201);
      Reply get = cluster.client((i + 1) % cluster.size()).get(key);
      assertThat(get.status()).isEqualTo(200);
      assertThat(get.text()).isEqualTo("alive");
    }
  }

  private static void assertRejected(Reply reply, int status) {
    assertThat(reply.status()).as("status of %s", reply).isEqualTo(status);
    assertThat(reply.text()).as("reason").isNotBlank();
  }

  private static void assertRejected(RawHttp.Response reply, int status) {
    assertThat(reply.status()).as("status, body '%s'", reply.text()).isEqualTo(status);
    assertThat(reply.text()).as("reason").isNotBlank();
  }

  @ParameterizedTest
  @ValueSource(strings = {"%zz", "abc%", "a%2", "%G0", "ok&ack=%zz"})
  void aBadPercentEscapeIs400(String rawId) {
    for (String method : new String[] {"GET", "PUT", "DELETE"}) {
      RawHttp.Response reply =
          RawHttp.exchange(
              cluster.port(0),
              method,
              "/v0/entity?id=" + rawId,
              method.equals("PUT") ? new byte[] {1} : null);
      assertRejected(reply, 400);
    }
  }

  @Test
  void idsThatAreNotUtf8AreRefused() {
    for (String id : new String[] {"%FF", "%FE", "a%C3", "%C3%28", "%ED%A0%80"}) {
      RawHttp.Response put =
          RawHttp.exchange(cluster.port(0), "PUT", "/v0/entity?id=" + id, new byte[] {'1'});
      assertRejected(put, 400);
      assertThat(put.text()).contains("UTF-8");
    }
  }

  @Test
  void aKeyOfExactly1KiBIsAcceptedAndOneByteMoreIs400() {
    String limit = "k".repeat(1024);
    assertThat(cluster.client(0).put(limit, "at the limit").status()).isEqualTo(201);
    assertThat(cluster.client(1).get(limit).text()).isEqualTo("at the limit");

    String over = "k".repeat(1025);
    assertRejected(cluster.client(0).put(over, "too long"), 400);
    assertRejected(cluster.client(0).get(over), 400);
    assertRejected(cluster.client(0).delete(over), 400);
  }

  @Test
  void theKeyLimitCountsUtf8Bytes() {
    String limit = "ä".repeat(512); // 1024 bytes
    assertThat(cluster.client(0).put(limit, "v").status()).isEqualTo(201);
    String over = "ä".repeat(512) + "k"; // 513 chars, 1025 bytes
    assertRejected(cluster.client(0).put(over, "v"), 400);
    assertRejected(cluster.client(0).put("€".repeat(342), "v"), 400); // 1026 bytes
  }

  @Test
  void aVeryLongKeyIsRejected() {
    // 6 KiB of key: its encoded form is far past the key limit but within the request line limit
    Reply reply = cluster.client(0).put("x".repeat(6 * 1024), "v");
    assertRejected(reply, 400);
  }

  @ParameterizedTest
  @ValueSource(strings = {"line\nbreak", "\n", "trailing\n"})
  void aKeyWithANewlineIs400(String key) {
    assertRejected(cluster.client(1).put(key, "v"), 400);
    assertRejected(cluster.client(1).get(key), 400);
    assertRejected(cluster.client(1).delete(key), 400);
  }

  @ParameterizedTest
  @ValueSource(strings = {"ack=abc", "from=abc", "ack=1&from=two", "ack=0x1", "from=1e1"})
  void nonNumericAckOrFromIs400(String params) {
    assertRejected(
        cluster.client(2).send("PUT", "/v0/entity?id=nn&" + params, BodyPublishers.ofString("v")),
        400);
    assertRejected(
        cluster.client(2).send("GET", "/v0/entity?id=nn&" + params, BodyPublishers.noBody()), 400);
    assertThat(cluster.client(0).get("nn").status()).isEqualTo(404);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "/",
        "/v0",
        "/v0/",
        "/v0/entity/extra?id=k",
        "/v0/entityx?id=k",
        "/v0/ENTITY?id=k",
        "/v1/entity?id=k",
        "/v0/entities/?start=a",
        "/status",
        "/health",
        "/internal",
        "/favicon.ico"
      })
  void anUnknownPathIs400(String target) {
    for (String method : new String[] {"GET", "PUT", "DELETE"}) {
      assertRejected(cluster.client(0).send(method, target, BodyPublishers.ofString("v")), 400);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"POST", "PATCH", "OPTIONS", "FOO"})
  void anotherMethodOnAnEntityIs405(String method) {
    RawHttp.Response reply =
        RawHttp.exchange(cluster.port(1), method, "/v0/entity?id=m", new byte[] {'v'});
    assertRejected(reply, 405);
    assertThat(cluster.client(0).get("m", 3, 3).status()).isEqualTo(404);
  }

  @Test
  void aValueAtTheLimitIsStoredAndOneByteMoreIs413() {
    byte[] atLimit = new byte[MAX_VALUE];
    Arrays.fill(atLimit, (byte) 'a');
    assertThat(cluster.client(0).put("at-limit", atLimit).status()).isEqualTo(201);
    assertThat(cluster.client(1).get("at-limit").body()).isEqualTo(atLimit);

    assertRejected(cluster.client(0).put("over-limit", new byte[MAX_VALUE + 1]), 413);
    assertRejected(cluster.client(1).put("over-limit", new byte[2 * MAX_VALUE]), 413);
    assertThat(cluster.client(2).get("over-limit", 3, 3).status()).isEqualTo(404);
  }

  @Test
  void aChunkedValueOverTheLimitIs413() {
    byte[] within = new byte[MAX_VALUE - 1];
    assertThat(chunkedPut(0, "chunked-within", within).status()).isEqualTo(201);
    assertThat(cluster.client(1).get("chunked-within").body()).isEqualTo(within);

    assertRejected(chunkedPut(0, "chunked-over", new byte[MAX_VALUE + 1]), 413);
    assertRejected(chunkedPut(2, "chunked-over", new byte[3 * MAX_VALUE]), 413);
    assertThat(cluster.client(1).get("chunked-over", 3, 3).status()).isEqualTo(404);
  }

  @Test
  void anOversizedValueDoesNotOverwriteTheStoredOne() {
    assertThat(cluster.client(0).put("keep", "small").status()).isEqualTo(201);
    assertRejected(cluster.client(1).put("keep", new byte[MAX_VALUE + 1]), 413);
    assertRejected(chunkedPut(2, "keep", new byte[MAX_VALUE + 1]), 413);
    assertThat(cluster.client(0).get("keep", 3, 3).text()).isEqualTo("small");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "/v0/entities",
        "/v0/entities?start=",
        "/v0/entities?end=z",
        "/v0/entities?start=a&end=",
        "/v0/entities?start=%zz",
        "/v0/entities?start=a%0Ab"
      })
  void aBadRangeIs400(String target) {
    assertRejected(RawHttp.get(cluster.port(2), target), 400);
  }

  private static Reply chunkedPut(int node, String key, byte[] value) {
    return cluster
        .client(node)
        .send(
            "PUT",
            DhtClient.entity(key, null, null),
            BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(value)));
  }
}
