package dev.dht.operator;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import io.javaoperatorsdk.operator.RuntimeInfo;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.Executors;

/**
 * Probes and metrics on a small JDK HTTP server: /healthz (informers healthy), /readyz (operator
 * started; standby replicas are ready too, they only wait for the lease), /metrics (Prometheus),
 * and whatever else is handed in (the load test report site).
 */
public final class HealthServer implements AutoCloseable {
  private final HttpServer server;

  private HealthServer(HttpServer server) {
    this.server = server;
  }

  public static HealthServer start(
      InetSocketAddress address, RuntimeInfo runtime, PrometheusMeterRegistry registry)
      throws IOException {
    return start(address, runtime, registry, Map.of());
  }

  /** As above, with more handlers by path prefix. */
  public static HealthServer start(
      InetSocketAddress address,
      RuntimeInfo runtime,
      PrometheusMeterRegistry registry,
      Map<String, HttpHandler> more)
      throws IOException {
    var server = HttpServer.create(address, 16);
    // virtual threads: a probe never waits behind a report page that reads the apiserver
    server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
    more.forEach(server::createContext);
    server.createContext("/healthz", ex -> answer(ex, isLive(runtime), "text/plain", "ok\n"));
    server.createContext("/readyz", ex -> answer(ex, runtime.isStarted(), "text/plain", "ready\n"));
    server.createContext(
        "/metrics",
        ex -> answer(ex, true, "text/plain; version=0.0.4; charset=utf-8", registry.scrape()));
    server.start();
    return new HealthServer(server);
  }

  public int port() {
    return server.getAddress().getPort();
  }

  private static boolean isLive(RuntimeInfo runtime) {
    return !runtime.isStarted() || runtime.allEventSourcesAreHealthy();
  }

  private static void answer(HttpExchange exchange, boolean ok, String type, String body)
      throws IOException {
    try (exchange) {
      byte[] bytes = (ok ? body : "unavailable\n").getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", ok ? type : "text/plain");
      exchange.sendResponseHeaders(ok ? 200 : 503, bytes.length);
      exchange.getResponseBody().write(bytes);
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
