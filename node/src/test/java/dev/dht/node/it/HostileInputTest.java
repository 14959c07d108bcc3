package dev.dht.node.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What broken or hostile clients send, over raw sockets, to a cluster of three node processes.
 * Every answer is the documented 4xx (never a 500 the client caused); after every test each node is
 * alive, has no request and no body byte left in flight, and serves a normal PUT and GET.
 */
class HostileInputTest {
  private static final String SECRET = "hostile-input-secret";
  private static final AtomicInteger probes = new AtomicInteger();

  @TempDir static Path root;
  static final List<NodeProcess> nodes = new ArrayList<>();

  @BeforeAll
  static void startCluster() {
    nodes.addAll(
        NodeProcess.startCluster(
            root, "128m", List.of(Map.of(), Map.of(), Map.of()), "--body-timeout-ms", "1000"));
    // first requests of cold JVMs on a busy machine may take longer than a request's timeout:
    // the cluster serves a replicated write and read before the tests start probing it
    await()
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(200))
        .until(() ->
            nodes.get(0).client().put("warm-up", "x").status() == 201
                && nodes.get(1).client().get("warm-up").status() == 200
                && nodes.get(2).client().get("warm-up").status() == 200);
  }

  @AfterAll
  static void stopCluster() {
    nodes.forEach(NodeProcess::close);
  }

  @AfterEach
  void everyNodeIsCleanAndServes() {
    for (int i = 0; i < nodes.size(); i++) {
      NodeProcess node = nodes.get(i);
      assertThat(node.alive()).as("node %d alive; log:%n%s", i, node.log()).isTrue();
      node.awaitNothingInFlight();
      String key = "probe-" + probes.incrementAndGet();
      assertThat(node.client().put(key, "alive").status()).isEqualTo(201);
      DhtClient.Reply get = nodes.get((i + 1) % nodes.size()).client().get(key);
      assertThat(get.status()).isEqualTo(200);
      assertThat(get.text()).isEqualTo("alive");
    }
    assertThat(String.join("\n", nodes.stream().map(NodeProcess::log).toList()))
        .doesNotContain("OutOfMemoryError")
        .doesNotContain("request failed"); // a 500 from an unexpected exception
  }

  private static int port(int node) {
    return nodes.get(node).port();
  }

  /** Sends {@code request} on a new connection; the statuses answered before the node closed. */
  private static List<Integer> exchange(int node, String request) {
    try (RawSocket socket = new RawSocket(port(node))) {
      socket.send(request);
      return RawSocket.statuses(socket.readAll(3000));
    }
  }

  private static void assertRefusedAndClosed(int node, String request, Integer... allowed) {
    try (RawSocket socket = new RawSocket(port(node))) {
      socket.send(request);
      String answer = socket.readAll(3000);
      assertThat(RawSocket.statuses(answer)).as("answer to %s: %s", request, answer).hasSize(1);
      assertThat(RawSocket.statuses(answer).getFirst()).as(answer).isIn((Object[]) allowed);
    }
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "GARBAGE\r\n\r\n",
        "GET\r\n\r\n",
        "GET /v0/status HTTP/1.1 extra\r\nHost: x\r\n\r\n",
        "GET /v0/status\r\n\r\n",
        "PUT /v0/entity?id=k HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\nv",
        "PUT /v0/entity?id=k HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\nv",
        "GET /v0/status HTTP/1.1\r\nno colon here\r\n\r\n",
        "GET /v0/status HTTP/1.1\r\n : empty name\r\n\r\n"
      })
  void aMalformedRequestIs400(String request) {
    assertRefusedAndClosed(0, request, 400);
  }

  /**
   * A malformed version is 400; a well-formed one other than 1.0 and 1.1 (HTTP/2.0 too: h2c is off)
   * gets Vert.x's 501 Not Implemented, and the connection is closed.
   */
  @ParameterizedTest
  @ValueSource(strings = {"HTTP/9.9", "HTTP/2.0", "HTTP/1.x", "FTP/1.1", "HTTP/1.1x", "http/1.1"})
  void aBadHttpVersionIsRefused(String version) {
    try (RawSocket socket = new RawSocket(port(1))) {
      socket.send("GET /v0/status " + version + "\r\nHost: x\r\n\r\n");
      String answer = socket.readAll(3000);
      assertThat(answer).as(answer).matches("(?s)[A-Za-z]+/\\S+ (400|501) .*");
      assertThat(socket.closedByPeer()).isTrue();
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {64 * 1024, 1024 * 1024})
  void aHugeHeaderIs431(int size) {
    String request = "GET /v0/status HTTP/1.1\r\nX-Big: " + "h".repeat(size) + "\r\n\r\n";
    assertRefusedAndClosed(2, request, 431, 400);
  }

  @Test
  void aRequestLineOverTheLimitIs414() {
    assertRefusedAndClosed(0, "GET /v0/entity?id=" + "k".repeat(20_000) + " HTTP/1.1\r\n\r\n", 414);
  }

  @Test
  void controlBytesInTheTargetOrAHeaderAre400() {
    assertThat(exchange(0, "GET /v0/entity?id=a\u0000b HTTP/1.1\r\nHost: x\r\n\r\n"))
        .containsExactly(400);
    assertThat(exchange(0, "GET /v0/entity?id=a\u0007b HTTP/1.1\r\nHost: x\r\n\r\n"))
        .containsExactly(400);
    assertThat(exchange(1, "GET /v0/status HTTP/1.1\r\nX-A: a\u0000b\r\n\r\n"))
        .containsExactly(400);
    // percent-encoded, the same bytes are a valid binary key
    assertThat(nodes.get(1).client().put("a\u0000b", "nul").status()).isEqualTo(201);
    assertThat(nodes.get(2).client().get("a\u0000b").text()).isEqualTo("nul");
  }

  @Test
  void anOversizedKeyIs400() {
    String id = "k".repeat(2048);
    assertThat(exchange(1, put("/v0/entity?id=" + id, "v", true))).containsExactly(400);
  }

  @Test
  void anOversizedDeclaredBodyIs413WithoutReadingIt() {
    try (RawSocket socket = new RawSocket(port(2))) {
      socket.send("PUT /v0/entity?id=huge HTTP/1.1\r\nHost: x\r\nContent-Length: 2097152\r\n\r\n");
      // answered at once, from the declared length; the connection closes at the body deadline
      String answer = socket.readAll(3000);
      assertThat(RawSocket.statuses(answer)).as(answer).containsExactly(413);
      assertThat(socket.closedByPeer()).isTrue();
    }
    assertThat(nodes.get(0).client().get("huge").status()).isEqualTo(404);
  }

  @Test
  void anOversizedChunkedBodyIs413() {
    try (RawSocket socket = new RawSocket(port(0))) {
      socket.send(
          "PUT /v0/entity?id=huge-chunked HTTP/1.1\r\nHost: x\r\n"
              + "Transfer-Encoding: chunked\r\n\r\n");
      String chunk = Integer.toHexString(64 * 1024) + "\r\n" + "c".repeat(64 * 1024) + "\r\n";
      for (int i = 0; i < 20 && socket.send(chunk); i++) {
        // 1.25 MiB in all, past the 1 MiB limit, unless the node stops reading first
      }
      socket.send("0\r\n\r\n");
      assertThat(RawSocket.statuses(socket.readAll(3000))).containsExactly(413);
    }
    assertThat(nodes.get(1).client().get("huge-chunked").status()).isEqualTo(404);
  }

  @ParameterizedTest
  @ValueSource(strings = {"zz\r\n", "-1\r\n", "FFFFFFFFFFFFFFFFFFFF\r\n", "5\r\nabc\r\nxyz\r\n"})
  void aChunkedBodyWithABadSizeIsRefused(String chunks) {
    List<Integer> statuses =
        exchange(
            1,
            "PUT /v0/entity?id=bad-chunk HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                + chunks
                + "0\r\n\r\n");
    assertThat(statuses).allMatch(s -> s == 400).hasSizeLessThanOrEqualTo(1);
    assertThat(nodes.get(2).client().get("bad-chunk").status()).isEqualTo(404);
  }

  @Test
  void aBodyShorterThanItsContentLengthTimesOutWith408() {
    try (RawSocket socket = new RawSocket(port(2))) {
      socket.send("PUT /v0/entity?id=short HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n");
      socket.send("only ten b");
      String answer = socket.readAll(5000);
      assertThat(RawSocket.statuses(answer)).as(answer).containsExactly(408);
      assertThat(socket.closedByPeer()).isTrue();
    }
    assertThat(nodes.get(0).client().get("short").status()).isEqualTo(404);
  }

  @Test
  void aSlowBodyTimesOutWith408() throws InterruptedException {
    try (RawSocket socket = new RawSocket(port(0))) {
      socket.send("PUT /v0/entity?id=slow HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n");
      for (int i = 0; i < 6 && socket.send("s"); i++) {
        Thread.sleep(300); // 1 byte every 300 ms: 3 s for 10 bytes, past the 1 s deadline
      }
      assertThat(RawSocket.statuses(socket.readAll(3000))).containsExactly(408);
    }
    assertThat(nodes.get(1).client().get("slow").status()).isEqualTo(404);
  }

  @Test
  void bytesBeyondTheContentLengthAreTheNextRequest() {
    List<Integer> statuses =
        exchange(
            1,
            "PUT /v0/entity?id=exact HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello"
                + "EXTRA GARBAGE\r\n\r\n");
    assertThat(statuses).containsExactly(201, 400);
    assertThat(nodes.get(2).client().get("exact").text()).isEqualTo("hello");
  }

  @Test
  void conflictingLengthsAreRefused() {
    assertThat(
            exchange(
                2,
                "PUT /v0/entity?id=smuggle HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n"
                    + "Content-Length: 6\r\n\r\nhello!"))
        .containsExactly(400);
    List<Integer> both =
        exchange(
            0,
            "PUT /v0/entity?id=smuggle HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n");
    // RFC 9112: Transfer-Encoding wins over Content-Length (or the request is refused)
    assertThat(both).isIn(List.of(201), List.of(400));
  }

  @Test
  void pipelinedRequestsAreAnsweredInOrder() {
    String requests =
        put("/v0/entity?id=piped", "v1", false)
            + "GET /v0/entity?id=piped HTTP/1.1\r\nHost: x\r\n\r\n"
            + "DELETE /v0/entity?id=piped HTTP/1.1\r\nHost: x\r\n\r\n"
            + "GET /v0/entity?id=piped HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
    assertThat(exchange(0, requests)).containsExactly(201, 200, 202, 404);
  }

  @Test
  void clientsThatResetMidBodyLeaveNothingBehind() {
    for (int i = 0; i < 30; i++) {
      RawSocket socket = new RawSocket(port(i % 3));
      switch (i % 3) {
        case 0 ->
            socket.send(
                "PUT /v0/entity?id=reset HTTP/1.1\r\nContent-Length: 1000\r\n\r\n"
                    + "r".repeat(100));
        case 1 -> socket.send("PUT /v0/entity?id=reset HTTP/1.1\r\nContent-Length: 1000\r\n\r\n");
        default ->
            socket.send(
                "PUT /v0/entity?id=reset HTTP/1.1\r\nTransfer-Encoding: chunked"
                    + "\r\n\r\n10\r\nrrrrr");
      }
      socket.reset();
    }
    assertThat(nodes.get(0).client().get("reset").status()).isEqualTo(404);
  }

  /**
   * A client that half-closes its side right after its requests: the node closes the connection
   * (Netty does not allow half-closure), so answers may be lost, but nothing is left in flight.
   */
  @Test
  void aHalfClosedConnectionLeavesNothingBehind() {
    for (int i = 0; i < 10; i++) {
      try (RawSocket socket = new RawSocket(port(i % 3))) {
        socket.send(
            put("/v0/entity?id=half", "closed", false)
                + "GET /v0/entity?id=half HTTP/1.1\r\nHost: x\r\n\r\n");
        socket.shutdownOutput();
        assertThat(RawSocket.statuses(socket.readAll(3000))).isSubsetOf(201, 200);
      }
    }
  }

  @Test
  void expect100ContinueIsAnsweredAndATooLargeBodyIsRefusedBeforeItIsSent() {
    try (RawSocket socket = new RawSocket(port(2))) {
      socket.send(
          "PUT /v0/entity?id=continue HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n"
              + "Expect: 100-continue\r\n\r\n");
      assertThat(socket.readAll(1000)).startsWith("HTTP/1.1 100 Continue");
      socket.send("hello");
      assertThat(RawSocket.statuses(socket.readAll(1000))).containsExactly(201);
    }
    try (RawSocket socket = new RawSocket(port(2))) {
      socket.send(
          "PUT /v0/entity?id=continue HTTP/1.1\r\nHost: x\r\nContent-Length: 2000000\r\n"
              + "Expect: 100-continue\r\n\r\n");
      assertThat(RawSocket.statuses(socket.readAll(1000))).containsExactly(413);
    }
    assertThat(nodes.get(0).client().get("continue").text()).isEqualTo("hello");
  }

  @Test
  void internalPathsWithoutOrWithAWrongSecretAre403() {
    String body = "x".repeat(100_000);
    for (String secret : new String[] {null, "wrong", SECRET + "x", ""}) {
      String header = secret == null ? "" : "X-Dht-Cluster-Secret: " + secret + "\r\n";
      assertThat(
              exchange(
                  0,
                  "POST /internal/v0/batch HTTP/1.1\r\nHost: x\r\n"
                      + header
                      + "Content-Length: "
                      + body.length()
                      + "\r\nConnection: close\r\n\r\n"
                      + body))
          .as("secret %s", secret)
          .containsExactly(403);
    }
  }

  @Test
  void everyAnswerIsCountedInTheMetrics() {
    exchange(1, "GET /nowhere HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    exchange(1, "POST /v0/entity?id=m HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    exchange(1, "POST /internal/v0/batch HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    exchange(1, "GET /v0/entities?start=a HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    exchange(1, "PUT /v0/entity?id=m HTTP/1.1\r\nHost: x\r\nContent-Length: 2000000\r\n\r\n");
    try (RawSocket slow = new RawSocket(port(1))) {
      slow.send("PUT /v0/entity?id=m HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n");
      assertThat(RawSocket.statuses(slow.readAll(3000))).containsExactly(408);
    }
    MetricsText metrics = MetricsText.of(nodes.get(1).client());
    for (String[] sample :
        new String[][] {
          {"unknown", "400"},
          {"entity-other", "405"},
          {"internal", "403"},
          {"range", "200"},
          {"put", "413"},
          {"put", "408"}
        }) {
      String series = "operation=\"" + sample[0] + "\",status=\"" + sample[1] + "\"";
      assertThat(metrics.value("dht_requests_seconds_count", series)).as(series).isPositive();
    }
  }

  private static String put(String target, String body, boolean close) {
    return "PUT "
        + target
        + " HTTP/1.1\r\nHost: x\r\nContent-Length: "
        + body.getBytes(StandardCharsets.UTF_8).length
        + (close ? "\r\nConnection: close" : "")
        + "\r\n\r\n"
        + body;
  }
}
