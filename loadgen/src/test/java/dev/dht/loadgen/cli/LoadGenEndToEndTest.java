package dev.dht.loadgen.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.dht.pki.CertificateAuthority;
import dev.dht.pki.LeafRequest;
import dev.dht.pki.Pem;
import dev.dht.pki.Validity;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.PemKeyCertOptions;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Real runs of the command against tiny Vert.x servers on 127.0.0.1 (random ports). */
class LoadGenEndToEndTest {
  /** Upper bound for a 1 s run (+ drain, shutdown, JVM noise): a hang guard, not a timing check. */
  private static final Duration HANG_GUARD = Duration.ofSeconds(30);

  private static Vertx vertx;

  @TempDir Path dir;

  @BeforeAll
  static void startVertx() {
    vertx = Vertx.vertx();
  }

  @AfterAll
  static void stopVertx() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  private static HttpServer serve(Handler<HttpServerRequest> handler) throws Exception {
    return vertx
        .createHttpServer()
        .requestHandler(handler)
        .listen(0, "127.0.0.1")
        .toCompletionStage()
        .toCompletableFuture()
        .get(10, TimeUnit.SECONDS);
  }

  private JsonObject run(int port, String... extra) throws IOException {
    Path json = dir.resolve("run.json");
    String[] base = {
      "--url", "http://127.0.0.1:" + port, "--json", json.toString(), "--quiet", "--duration", "1"
    };
    String[] args = new String[base.length + extra.length];
    System.arraycopy(base, 0, args, 0, base.length);
    System.arraycopy(extra, 0, args, base.length, extra.length);
    LoadGenCommandTest.Outcome o =
        assertTimeoutPreemptively(HANG_GUARD, () -> LoadGenCommandTest.execute(args));
    assertThat(o.exitCode()).as(o.err()).isZero();
    assertThat(o.out()).contains("Detailed Percentile spectrum:", "Requests/sec:");
    return new JsonObject(Files.readString(json));
  }

  @Test
  void theSelfWarmUpLoadsAStandInAndNothingOfItReachesTheTarget() throws Exception {
    AtomicLong received = new AtomicLong();
    HttpServer server =
        serve(req -> {
          received.incrementAndGet();
          req.response().setStatusCode(201).end();
        });
    try {
      String[] args = {
        "--url",
        "http://127.0.0.1:" + server.actualPort(),
        "--quiet",
        "--duration",
        "1",
        "--rate",
        "200",
        "--connections",
        "4",
        "--threads",
        "1",
        "--self-warm-up",
        "5s"
      };
      LoadGenCommandTest.Outcome o =
          assertTimeoutPreemptively(HANG_GUARD, () -> LoadGenCommandTest.execute(args));

      assertThat(o.exitCode()).as(o.err()).isZero();
      // at least two phases of 2 s at 200 req/s went to the stand-in, none to the target
      assertThat(o.err())
          .containsPattern("self warm-up: \\d+ ms, [2-9] phases of 2 s, (\\d{3,}) requests");
      assertThat(received.get()).isBetween(150L, 200L + 4);
      assertThat(o.out()).contains("Requests/sec:");
    } finally {
      server.close();
    }
  }

  @Test
  void aMixedRunAgainstAnAnsweringServer() throws Exception {
    AtomicLong badBodies = new AtomicLong();
    HttpServer server =
        serve(req -> {
          if (req.method() == HttpMethod.PUT) {
            req.body()
                .onSuccess(b -> {
                  if (b.length() != 64) {
                    badBodies.incrementAndGet();
                  }
                  req.response().setStatusCode(201).end();
                });
          } else if (req.getParam("id").endsWith("7")) {
            req.response().setStatusCode(404).end();
          } else {
            req.response().setStatusCode(200).end("value");
          }
        });
    Path html = dir.resolve("report/run.html");
    Path termination = dir.resolve("termination-log");
    try {
      JsonObject j =
          run(
              server.actualPort(),
              "--workload",
              "mixed",
              "--read-ratio",
              "0.5",
              "--rate",
              "300",
              "--warmup",
              "200ms",
              "--connections",
              "4",
              "--threads",
              "2",
              "--value-size",
              "64",
              "--ack",
              "1",
              "--from",
              "1",
              "--html",
              html.toString(),
              "--termination-log",
              termination.toString());

      long requests = j.getLong("requests");
      assertThat(requests).isPositive().isLessThanOrEqualTo(300 + 60 + 4);
      assertThat(j.getLong("errors")).isZero();
      assertThat(j.getLong("non2xx")).isZero();
      assertThat(j.getLong("notFound")).isPositive();
      assertThat(j.getLong("ok") + j.getLong("notFound")).isEqualTo(requests);
      assertThat(j.getJsonObject("statusCounts").getLong("201")).isPositive();
      assertThat(j.getDouble("achievedRate")).isEqualTo(requests / 1.0);
      assertThat(badBodies.get()).isZero();
      assertThat(Files.readString(html)).contains("<svg");
      assertThat(Files.size(termination)).isPositive().isLessThanOrEqualTo(4096);
    } finally {
      server.close();
    }
  }

  @Test
  void anHttpsTargetIsLoadedTrustingTheGivenCa() throws Exception {
    var validity = Validity.of(Instant.now().minusSeconds(60), Duration.ofDays(1));
    var ca = CertificateAuthority.generate("loadgen test CA", validity);
    var leaf =
        ca.issue(new LeafRequest("server", List.of("localhost"), List.of("127.0.0.1"), validity));
    Path caFile = Files.writeString(dir.resolve("ca.crt"), Pem.certificate(ca.certificate()));
    HttpServer server =
        vertx
            .createHttpServer(
                new HttpServerOptions()
                    .setSsl(true)
                    .setKeyCertOptions(
                        new PemKeyCertOptions()
                            .setCertValue(Buffer.buffer(Pem.certificate(leaf.certificate())))
                            .setKeyValue(Buffer.buffer(Pem.privateKey(leaf.privateKey())))))
            .requestHandler(req -> req.response().setStatusCode(200).end("v"))
            .listen(0, "127.0.0.1")
            .toCompletionStage()
            .toCompletableFuture()
            .get(10, TimeUnit.SECONDS);
    try {
      Path json = dir.resolve("tls.json");
      String url = "https://127.0.0.1:" + server.actualPort();
      String[] common = {
        "--url",
        url,
        "--json",
        json.toString(),
        "--quiet",
        "--duration",
        "1",
        "--rate",
        "100",
        "--connections",
        "2",
        "--threads",
        "1",
        "--workload",
        "get"
      };
      var trusted =
          assertTimeoutPreemptively(
              HANG_GUARD,
              () -> LoadGenCommandTest.execute(concat(common, "--ca-file", caFile.toString())));
      assertThat(trusted.exitCode()).as(trusted.err()).isZero();
      JsonObject j = new JsonObject(Files.readString(json));
      assertThat(j.getLong("ok")).isPositive().isEqualTo(j.getLong("requests"));
      assertThat(j.getLong("errors")).isZero();

      var untrusted =
          assertTimeoutPreemptively(HANG_GUARD, () -> LoadGenCommandTest.execute(common));
      JsonObject k = new JsonObject(Files.readString(json));
      assertThat(k.getLong("ok")).as("the JVM's CAs do not trust a cluster's own CA").isZero();
      assertThat(k.getLong("errors")).isPositive();
    } finally {
      server.close();
    }
  }

  private static String[] concat(String[] a, String... b) {
    String[] all = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, all, a.length, b.length);
    return all;
  }

  @Test
  void aTokenFileIsSentAsBearerWithEveryRequest() throws Exception {
    var unauthorized = new java.util.concurrent.atomic.AtomicInteger();
    HttpServer server =
        serve(req -> {
          boolean ok = "Bearer s3cret-token".equals(req.getHeader("Authorization"));
          if (!ok) {
            unauthorized.incrementAndGet();
          }
          req.response().setStatusCode(ok ? 200 : 401).end(ok ? "v" : "");
        });
    try {
      Path token = Files.writeString(dir.resolve("token"), "s3cret-token\n");
      JsonObject j =
          run(
              server.actualPort(),
              "--rate",
              "200",
              "--connections",
              "2",
              "--threads",
              "1",
              "--workload",
              "get",
              "--token-file",
              token.toString());
      assertThat(j.getLong("ok")).isPositive().isEqualTo(j.getLong("requests"));
      assertThat(unauthorized.get()).as("requests without the token, /v0/status included").isZero();
    } finally {
      server.close();
    }
  }

  @Test
  void unexpectedStatusesAreNon2xxNotErrors() throws Exception {
    HttpServer server = serve(req -> req.response().setStatusCode(503).end());
    try {
      JsonObject j =
          run(server.actualPort(), "--rate", "200", "--connections", "2", "--threads", "1");

      assertThat(j.getLong("requests")).isPositive();
      assertThat(j.getLong("non2xx")).isEqualTo(j.getLong("requests"));
      assertThat(j.getLong("errors")).isZero();
    } finally {
      server.close();
    }
  }

  @Test
  void aClosedPortCountsErrorsAndTheRunEnds() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    JsonObject j =
        run(port, "--rate", "200", "--connections", "2", "--threads", "1", "--timeout", "500ms");

    assertThat(j.getLong("requests")).isZero();
    assertThat(j.getLong("errors")).isPositive();
    assertThat(j.getLong("connectErrors")).isEqualTo(j.getLong("errors"));
  }

  @Test
  void aServerThatNeverAnswersIsCutByTheTimeout() throws Exception {
    HttpServer server = serve(req -> {});
    try {
      JsonObject j =
          run(
              server.actualPort(),
              "--rate",
              "100",
              "--connections",
              "4",
              "--threads",
              "1",
              "--timeout",
              "300ms");

      assertThat(j.getLong("requests")).isZero();
      assertThat(j.getLong("timeouts")).isPositive();
      assertThat(j.getLong("errors")).isEqualTo(j.getLong("timeouts"));
    } finally {
      server.close();
    }
  }
}
