package dev.dht.operator.bounded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Bodies read from a real HTTP server (on loopback) that misbehaves as a tenant's pod could: too
 * much, announced or not, or too slowly.
 */
class BoundedHttpTest {
  private static final int MIB = 1024 * 1024;
  private static final ReadLimit ONE_MIB =
      new ReadLimit("a generator's /result", MIB, Duration.ofSeconds(5));

  private final HttpClient http =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private final AtomicLong sent = new AtomicLong();
  private HttpServer server;

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 8);
    server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
    server.createContext(
        "/small",
        exchange -> {
          byte[] body = "{\"phase\":\"done\"}".getBytes(StandardCharsets.UTF_8);
          exchange.sendResponseHeaders(200, body.length);
          exchange.getResponseBody().write(body);
          exchange.close();
        });
    // 512 MiB, announced
    server.createContext("/announced", exchange -> zeros(exchange, 512L * MIB, 512L * MIB));
    // 512 MiB, chunked: nothing says how much comes
    server.createContext("/endless", exchange -> zeros(exchange, 0, 512L * MIB));
    // a byte every 100 ms
    server.createContext(
        "/trickle",
        exchange -> {
          exchange.sendResponseHeaders(200, 0);
          try (var out = exchange.getResponseBody()) {
            for (int i = 0; i < 600; i++) {
              out.write('x');
              out.flush();
              Thread.sleep(100);
            }
          } catch (IOException | InterruptedException e) {
            // the client hung up
          }
        });
    server.start();
  }

  /** Writes {@code total} zeros from one reused buffer, counting what got out. */
  private void zeros(com.sun.net.httpserver.HttpExchange exchange, long announced, long total)
      throws IOException {
    exchange.sendResponseHeaders(200, announced);
    byte[] chunk = new byte[64 * 1024];
    try (var out = exchange.getResponseBody()) {
      for (long written = 0; written < total; written += chunk.length) {
        out.write(chunk);
        sent.addAndGet(chunk.length);
      }
    } catch (IOException e) {
      // the client hung up
    }
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  private HttpRequest get(String path) {
    return HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path))
        .build();
  }

  @Test
  void aBodyWithinTheLimitIsReadWhole() throws Exception {
    var answer = BoundedHttp.send(http, get("/small"), ONE_MIB);
    assertThat(answer.status()).isEqualTo(200);
    assertThat(answer.text()).isEqualTo("{\"phase\":\"done\"}");
  }

  @Test
  void aBodyAnnouncedTooLargeIsNotRead() {
    long before = Allocations.total();
    assertThatThrownBy(() -> BoundedHttp.send(http, get("/announced"), ONE_MIB))
        .isInstanceOf(TooLargeException.class)
        .hasMessage("a generator's /result is larger than the 1 MiB the operator reads of it");
    assertThat(Allocations.total() - before).isLessThan(16L * MIB);
  }

  /**
   * An oversized {@code /result} that does not say its size: the read stops at the cap, and the
   * whole JVM allocated a few MiB while the server had 512 MiB to send.
   */
  @Test
  void anEndlessBodyStopsAtTheCapWithoutHeapForTheRest() {
    long before = Allocations.total();
    long started = System.nanoTime();
    assertThatThrownBy(() -> BoundedHttp.send(http, get("/endless"), ONE_MIB))
        .isInstanceOf(TooLargeException.class)
        .hasMessageContaining("1 MiB");
    long allocated = Allocations.total() - before;

    assertThat(allocated).as("allocated while reading").isLessThan(32L * MIB);
    assertThat(System.nanoTime() - started).isLessThan(Duration.ofSeconds(5).toNanos());
    assertThat(sent.get()).as("what the server got out").isLessThan(64L * MIB);
  }

  @Test
  void aBodyThatTricklesEndsAtTheDeadline() {
    var limit = new ReadLimit("a node's /v0/admin/status", MIB, Duration.ofMillis(700));
    long started = System.nanoTime();
    assertThatThrownBy(() -> BoundedHttp.send(http, get("/trickle"), limit))
        .isInstanceOf(HttpTimeoutException.class)
        .hasMessage("a node's /v0/admin/status: no whole answer within 700 ms");
    assertThat(System.nanoTime() - started)
        .isBetween(Duration.ofMillis(600).toNanos(), Duration.ofSeconds(3).toNanos());
  }

  @Test
  void theAsyncFormFailsTheSameWay() {
    var answer = BoundedHttp.sendAsync(http, get("/endless"), ONE_MIB);
    assertThatThrownBy(answer::join).hasCauseInstanceOf(TooLargeException.class);
  }
}
