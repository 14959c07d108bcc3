package dev.dht.loadgen.warmup;

import dev.dht.loadgen.engine.LoadConfig;
import dev.dht.loadgen.engine.LoadRunner;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import java.net.URI;
import java.time.Duration;
import java.util.Arrays;

/**
 * The generator's own warm-up ({@code --self-warm-up}), before it sends anything to its target: the
 * same load (workload, rate, connections, threads) against a stand-in in this JVM on loopback, in
 * phases of 2 s, until this JVM's JIT compilers are quiet or the time is up. A new generator JVM
 * otherwise compiles its own request path during the first seconds of a test, on the CPUs of the
 * system it measures, and reports that as the system's latency.
 *
 * <p>The stand-in answers as a node does (PUT 201, DELETE 202, others 200 with a value of the
 * test's size), so that the generator's code meets the answers it will meet; it stores nothing.
 */
public final class SelfWarmUp {
  private static final Duration PHASE = Duration.ofSeconds(2);
  private static final int MIN_PHASES = 2;

  private SelfWarmUp() {}

  /**
   * Runs the warm-up for at most {@code max}; returns what it did, for the log. A warm-up that
   * fails only says so: the test runs anyway, as it would without one.
   */
  public static String run(LoadConfig config, Duration max) throws InterruptedException {
    Vertx vertx =
        Vertx.vertx(new VertxOptions().setPreferNativeTransport(true).setEventLoopPoolSize(1));
    try {
      HttpServer server =
          vertx
              .createHttpServer(
                  new HttpServerOptions().setHost("127.0.0.1").setPort(0).setTcpNoDelay(true))
              .requestHandler(new StandIn(config.valueSize()))
              .listen()
              .await();
      URI url = URI.create("http://127.0.0.1:" + server.actualPort());
      var untilQuiet = new UntilJitQuiet(WarmUpPlan.upTo(max.toMillis(), MIN_PHASES));
      LoadConfig phase = config.against(url, PHASE);
      long requests = 0;
      for (int i = 0; untilQuiet.test(i); i++) {
        requests += new LoadRunner(phase, null).run().requests();
      }
      return String.format(
          "self warm-up: %d ms, %d phases of %d s, %d requests to a stand-in on loopback, until"
              + " this JVM's JIT was quiet or %d s had passed",
          untilQuiet.elapsedMillis(),
          untilQuiet.phases(),
          PHASE.toSeconds(),
          requests,
          max.toSeconds());
    } catch (RuntimeException e) {
      return "self warm-up failed, running the test anyway: " + e;
    } finally {
      vertx.close().await();
    }
  }

  /** Answers as a node does, storing nothing. */
  private record StandIn(Buffer value) implements Handler<HttpServerRequest> {
    StandIn(int valueSize) {
      this(filled(valueSize));
    }

    private static Buffer filled(int size) {
      byte[] bytes = new byte[size];
      Arrays.fill(bytes, (byte) 'v');
      return Buffer.buffer(bytes);
    }

    @Override
    public void handle(HttpServerRequest request) {
      HttpMethod method = request.method();
      if (method == HttpMethod.PUT) {
        request.response().setStatusCode(201).end();
      } else if (method == HttpMethod.DELETE) {
        request.response().setStatusCode(202).end();
      } else {
        request.response().end(value);
      }
    }
  }
}
