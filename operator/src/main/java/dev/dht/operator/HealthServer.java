package dev.dht.operator;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.javaoperatorsdk.operator.RuntimeInfo;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;

/**
 * Probes and metrics on a small JDK HTTP server: /healthz (informers healthy), /readyz (operator
 * started; standby replicas are ready too, they only wait for the lease), /metrics (Prometheus).
 */
public final class HealthServer implements AutoCloseable {
  private final HttpServer server;

  private HealthServer(HttpServer server) {
    this.server = server;
  }

  public static HealthServer start(
      InetSocketAddress address, RuntimeInfo runtime, PrometheusMeterRegistry registry)
      throws IOException {
    var server = HttpServer.create(address, 16);
    server.setExecutor(Executors.newSingleThreadExecutor(r -> daemon(r, "health-http")));
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

  private static Thread daemon(Runnable runnable, String name) {
    var thread = new Thread(runnable, name);
    thread.setDaemon(true);
    return thread;
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
