package dev.dht.loadgen.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.loadgen.engine.LatencyRecorder;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two real generators run one test together, coordinated over their control ports with the JDK's
 * HTTP client as the operator does: they wait, start at the time given, and hand over results whose
 * histograms merge.
 */
class GeneratorsTogetherTest {
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  /** Own threads for the generators: the common pool may have one, and they block in it. */
  private static final java.util.concurrent.ExecutorService THREADS =
      java.util.concurrent.Executors.newCachedThreadPool();

  private static Vertx vertx;

  @BeforeAll
  static void startVertx() {
    vertx = Vertx.vertx();
  }

  @AfterAll
  static void stopVertx() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  @Test
  void twoGeneratorsStartTogetherAndTheirHistogramsMerge() throws Exception {
    HttpServer server = acceptingServer();
    int[] ports = {freePort(), 0};
    do {
      ports[1] = freePort(); // the kernel may give the same port twice
    } while (ports[1] == ports[0]);
    List<CompletableFuture<LoadGenCommandTest.Outcome>> runs = new ArrayList<>();
    try {
      for (int i = 0; i < 2; i++) {
        String[] args = {
          "--url",
          "http://127.0.0.1:" + server.actualPort(),
          "--quiet",
          "--rate",
          "400",
          "--duration",
          "2",
          "--warmup",
          "200ms",
          "--connections",
          "5",
          "--threads",
          "2",
          "--generators",
          "2",
          "--generator-index",
          Integer.toString(i),
          "--control-port",
          Integer.toString(ports[i]),
          "--await-start",
          "--start-timeout",
          "30s",
          "--linger",
          "30s"
        };
        runs.add(CompletableFuture.supplyAsync(() -> LoadGenCommandTest.execute(args), THREADS));
      }
      for (int port : ports) {
        awaitPhase(port, "waiting");
      }
      assertThat(get(ports[0], "/result").statusCode()).isEqualTo(409);
      assertThat(post(ports[0], "/release").statusCode())
          .as("nothing to release yet")
          .isEqualTo(409);

      long at = System.currentTimeMillis() + 1000;
      for (int port : ports) {
        assertThat(post(port, "/start?at=" + at).statusCode()).isEqualTo(202);
      }
      assertThat(post(ports[0], "/start?at=" + (at + 1)).statusCode()).isEqualTo(409);
      assertThat(post(ports[0], "/start?at=soon").statusCode()).isEqualTo(400);

      List<JsonObject> results = new ArrayList<>();
      for (int port : ports) {
        awaitPhase(port, "done");
        var response = get(port, "/result");
        assertThat(response.statusCode()).isEqualTo(200);
        results.add(new JsonObject(response.body()));
        assertThat(post(port, "/release").statusCode()).isEqualTo(202);
      }
      for (var run : runs) {
        var outcome = run.get(30, TimeUnit.SECONDS);
        assertThat(outcome.exitCode()).as(outcome.err()).isZero();
      }

      Histogram merged = LatencyRecorder.newHistogram();
      long requests = 0;
      for (int i = 0; i < 2; i++) {
        JsonObject r = results.get(i);
        assertThat(r.getInteger("generator")).isEqualTo(i);
        assertThat(r.getInteger("generators")).isEqualTo(2);
        assertThat(r.getDouble("targetRate")).isEqualTo(200.0);
        assertThat(r.getInteger("connections")).isEqualTo(i == 0 ? 3 : 2);
        // the measured window starts after the warm-up from the start time given, on both
        assertThat(r.getLong("windowStartMs")).isBetween(at + 200 - 20, at + 200 + 20);
        assertThat(r.getLong("windowEndMs") - r.getLong("windowStartMs")).isBetween(1980L, 2020L);
        Histogram h = decode(r.getString("histogram"));
        assertThat(h.getTotalCount()).isEqualTo(r.getLong("requests"));
        merged.add(h);
        requests += r.getLong("requests");
      }
      assertThat(merged.getTotalCount()).isEqualTo(requests);
      assertThat(requests).isBetween(700L, 820L);
    } finally {
      server.close();
    }
  }

  @Test
  void aRunShowsWhereItStandsAndEndsEarlyWhenAborted() throws Exception {
    HttpServer server = acceptingServer();
    int port = freePort();
    try {
      String[] args = {
        "--url",
        "http://127.0.0.1:" + server.actualPort(),
        "--quiet",
        "--rate",
        "200",
        "--duration",
        "60",
        "--warmup",
        "0s",
        "--connections",
        "2",
        "--threads",
        "1",
        "--control-port",
        Integer.toString(port),
        "--linger",
        "30s"
      };
      long started = System.nanoTime();
      var run = CompletableFuture.supplyAsync(() -> LoadGenCommandTest.execute(args), THREADS);
      JsonObject progress;
      do {
        Thread.sleep(200);
        try {
          progress = new JsonObject(get(port, "/progress").body());
        } catch (IOException notYetListening) {
          progress = new JsonObject();
        }
      } while (progress.getLong("requests", 0L) < 100);
      assertThat(progress.getString("phase")).isEqualTo("running");
      assertThat(progress.getBoolean("measuring")).isTrue();
      assertThat(progress.getDouble("measuredSeconds")).isPositive();
      assertThat(decode(progress.getString("histogram")).getTotalCount()).isPositive();

      var metrics = get(port, "/metrics");
      assertThat(metrics.statusCode()).isEqualTo(200);
      assertThat(metrics.headers().firstValue("content-type"))
          .hasValue("text/plain; version=0.0.4");
      assertThat(metrics.body())
          .contains("# TYPE dht_loadgen_responses_total counter")
          .contains("dht_loadgen_running{generator=\"0\"} 1")
          .contains("dht_loadgen_latency_seconds_bucket{generator=\"0\",le=\"+Inf\"} ")
          .containsPattern("(?m)^dht_loadgen_responses_total\\{generator=\"0\"\\} [1-9][0-9]*$");

      assertThat(post(port, "/abort?reason=p99%20past%20the%20limit").statusCode()).isEqualTo(202);
      awaitPhase(port, "done");
      assertThat(post(port, "/abort?reason=again").statusCode()).isEqualTo(409);
      var result = new JsonObject(get(port, "/result").body());
      assertThat(result.getString("aborted")).isEqualTo("p99 past the limit");
      assertThat(result.getDouble("durationSeconds")).isLessThan(30.0);
      assertThat(result.getDouble("achievedRate")).isGreaterThan(100.0);
      assertThat(post(port, "/release").statusCode()).isEqualTo(202);
      var outcome = run.get(30, TimeUnit.SECONDS);
      assertThat(outcome.exitCode()).as(outcome.err()).isZero();
      assertThat(outcome.err()).contains("the run was aborted: p99 past the limit");
      assertThat(System.nanoTime() - started).isLessThan(TimeUnit.SECONDS.toNanos(50));
    } finally {
      server.close();
    }
  }

  /** A server on 127.0.0.1 that answers every request 201, as a dht node answers a PUT. */
  private static HttpServer acceptingServer() throws Exception {
    return vertx
        .createHttpServer()
        .requestHandler(req -> req.body().onSuccess(b -> req.response().setStatusCode(201).end()))
        .listen(0, "127.0.0.1")
        .toCompletionStage()
        .toCompletableFuture()
        .get(10, TimeUnit.SECONDS);
  }

  private static Histogram decode(String base64) throws Exception {
    return Histogram.decodeFromCompressedByteBuffer(
        ByteBuffer.wrap(Base64.getDecoder().decode(base64)), 0);
  }

  private static void awaitPhase(int port, String phase) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (true) {
      try {
        var body = new JsonObject(get(port, "/progress").body());
        if (phase.equals(body.getString("phase"))) {
          return;
        }
      } catch (IOException notYetListening) {
        // the generator is still starting
      }
      assertThat(System.nanoTime()).as("phase " + phase + " on " + port).isLessThan(deadline);
      Thread.sleep(50);
    }
  }

  private static HttpResponse<String> get(int port, String path) throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .timeout(Duration.ofSeconds(5))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static HttpResponse<String> post(int port, String path) throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .timeout(Duration.ofSeconds(5))
            .POST(HttpRequest.BodyPublishers.noBody())
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
