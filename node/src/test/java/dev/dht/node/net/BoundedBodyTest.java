package dev.dht.node.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerResponse;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A peer's answer is read up to a limit, whether its length is declared or not. */
class BoundedBodyTest {
  private static final int LIMIT = 500;
  private static Vertx vertx;
  private static HttpServer server;
  private static HttpClient client;

  @BeforeAll
  static void start() throws Exception {
    vertx = Vertx.vertx();
    server =
        vertx
            .createHttpServer()
            .requestHandler(request -> {
              HttpServerResponse response = request.response();
              int size = Integer.parseInt(request.getParam("size"));
              if (request.path().equals("/declared")) {
                response.end(Buffer.buffer(new byte[size]));
              } else {
                response.setChunked(true);
                for (int sent = 0; sent < size; sent += 100) {
                  response.write(Buffer.buffer(new byte[Math.min(100, size - sent)]));
                }
                response.end();
              }
            })
            .listen(0, "127.0.0.1")
            .await(10, TimeUnit.SECONDS);
    client = vertx.createHttpClient();
  }

  @AfterAll
  static void stop() throws Exception {
    vertx.close().await(10, TimeUnit.SECONDS);
  }

  /**
   * A GET read with the limit, asked from an event loop as the node does (a chain started on a
   * thread of no context may see the answer end before its callback runs).
   */
  private static Buffer get(String path, int size) throws Exception {
    Promise<Buffer> body = Promise.promise();
    vertx
        .getOrCreateContext()
        .runOnContext(v ->
            client
                .request(HttpMethod.GET, server.actualPort(), "127.0.0.1", path + "?size=" + size)
                .compose(request -> request.send())
                .compose(response -> BoundedBody.read(response, LIMIT))
                .onComplete(body));
    return body.future().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  @Test
  void aBodyUpToTheLimitIsRead() throws Exception {
    assertThat(get("/declared", LIMIT).length()).isEqualTo(LIMIT);
    assertThat(get("/chunked", LIMIT).length()).isEqualTo(LIMIT);
    assertThat(get("/declared", 0).length()).isZero();
  }

  @Test
  void aBodyDeclaredLargerThanTheLimitIsRefusedUnread() {
    assertThatThrownBy(() -> get("/declared", LIMIT + 1))
        .isInstanceOf(ExecutionException.class)
        .cause()
        .isInstanceOf(BoundedBody.TooLargeException.class)
        .hasMessage("an answer of 501 bytes, more than the 500 expected");
  }

  @Test
  void aChunkedBodyThatGrowsPastTheLimitIsCutOff() {
    assertThatThrownBy(() -> get("/chunked", 100 * LIMIT))
        .isInstanceOf(ExecutionException.class)
        .cause()
        .isInstanceOf(BoundedBody.TooLargeException.class)
        .hasMessage("an answer of more than the 500 bytes expected");
  }
}
