package dev.dht.loadgen.control;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.dht.loadgen.engine.LiveStats;
import dev.dht.loadgen.report.JsonSummary;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The HTTP face of a {@link RunControl}, on its own thread so that it never takes a turn from the
 * load's event loops:
 *
 * <ul>
 *   <li>{@code GET /progress}: {@code {"generator":i,"generators":n,"phase":"waiting",
 *       "startAt":ms|null, ...}}, and once running where the run stands (see {@link LiveStats}),
 *       with the measured histogram so far;
 *   <li>{@code GET /metrics}: the same for Prometheus (text format 0.0.4);
 *   <li>{@code POST /start?at=<epoch ms>}: 202, or 409 if another start time was given;
 *   <li>{@code POST /abort?reason=...}: ends the run early; its result says why;
 *   <li>{@code GET /result}: the run's result (summary, measured window, histogram) once done, 409
 *       before;
 *   <li>{@code POST /release}: the result was collected, the generator may exit.
 * </ul>
 *
 * <p>Started with a token ({@code --control-token-file}), it answers {@code 401} to any request but
 * {@code GET /metrics} that lacks {@code Authorization: Bearer <token>}: whoever reaches the port
 * could otherwise start, stop or release the generator, or read its result. {@code /metrics} stays
 * open for Prometheus, which scrapes without credentials; it holds counters and latencies only.
 * Without a token (a generator run by hand) every path is open, as before.
 */
public final class ControlServer implements AutoCloseable {
  private static final String BEARER = "Bearer ";
  private final HttpServer server;
  private final ExecutorService executor;
  private final RunControl control;
  private final byte[] token;

  private ControlServer(
      HttpServer server, ExecutorService executor, RunControl control, byte[] token) {
    this.server = server;
    this.executor = executor;
    this.control = control;
    this.token = token;
  }

  /** Listens on all addresses at {@code port} (0: any free port); every path open. */
  public static ControlServer start(int port, RunControl control) throws IOException {
    return start(port, control, null);
  }

  /**
   * Listens on all addresses at {@code port} (0: any free port); every path but {@code /metrics}
   * needs {@code token} as a bearer token (null: none needed).
   */
  public static ControlServer start(int port, RunControl control, String token) throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress(port), 16);
    ExecutorService executor =
        Executors.newSingleThreadExecutor(r -> {
          Thread t = new Thread(r, "loadgen-control");
          t.setDaemon(true);
          return t;
        });
    ControlServer controlServer =
        new ControlServer(
            server,
            executor,
            control,
            token == null ? null : token.getBytes(StandardCharsets.UTF_8));
    server.createContext("/", controlServer::handle);
    server.setExecutor(executor);
    server.start();
    return controlServer;
  }

  int port() {
    return server.getAddress().getPort();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String method = exchange.getRequestMethod();
      URI uri = exchange.getRequestURI();
      String refused = "/metrics".equals(uri.getPath()) ? null : refusal(exchange);
      if (refused != null) {
        exchange.getResponseHeaders().set("WWW-Authenticate", "Bearer realm=\"loadgen-control\"");
        send(exchange, 401, error(refused));
        return;
      }
      switch (uri.getPath()) {
        case "/progress" -> {
          if (expect(exchange, method, "GET")) {
            send(exchange, 200, progressJson());
          }
        }
        case "/metrics" -> {
          if (expect(exchange, method, "GET")) {
            send(exchange, 200, PrometheusText.of(control), "text/plain; version=0.0.4");
          }
        }
        case "/abort" -> {
          if (expect(exchange, method, "POST")) {
            abort(exchange, uri.getRawQuery());
          }
        }
        case "/start" -> {
          if (expect(exchange, method, "POST")) {
            start(exchange, uri.getRawQuery());
          }
        }
        case "/result" -> {
          if (expect(exchange, method, "GET")) {
            var result = control.result();
            if (result.isPresent()) {
              send(exchange, 200, result.get());
            } else {
              send(exchange, 409, error("the run has not finished (" + phase() + ")"));
            }
          }
        }
        case "/release" -> {
          if (expect(exchange, method, "POST")) {
            if (control.phase() != RunControl.Phase.DONE) {
              send(exchange, 409, error("the run has not finished (" + phase() + ")"));
            } else {
              // answered first: once released, the generator stops this server and exits
              send(exchange, 202, "{\"released\":true}");
              control.release();
            }
          }
        }
        default -> send(exchange, 404, error("no such path: " + uri.getPath()));
      }
    }
  }

  /**
   * Why the request is refused, or null: no token is needed, or its {@code Authorization: Bearer}
   * is the token, compared in constant time ({@link MessageDigest#isEqual}'s time depends only on
   * the length of its first argument, here the presented token, which its sender knows anyway).
   */
  private String refusal(HttpExchange exchange) {
    if (token == null) {
      return null;
    }
    String header = exchange.getRequestHeaders().getFirst("Authorization");
    if (header == null || !header.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
      return "this control port needs Authorization: Bearer <the test's control token>";
    }
    byte[] presented = header.substring(BEARER.length()).strip().getBytes(StandardCharsets.UTF_8);
    return MessageDigest.isEqual(presented, token) ? null : "wrong control token";
  }

  private void abort(HttpExchange exchange, String query) throws IOException {
    String reason;
    try {
      reason = URLDecoder.decode(param(query, "reason"), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      send(exchange, 400, error("reason is not URL-encoded: " + e.getMessage()));
      return;
    }
    if (control.abort(reason)) {
      send(exchange, 202, "{\"aborted\":" + JsonSummary.quote(control.abortReason()) + "}");
    } else {
      send(exchange, 409, error("the run is over"));
    }
  }

  private void start(HttpExchange exchange, String query) throws IOException {
    long at;
    try {
      at = Long.parseLong(param(query, "at"));
    } catch (NumberFormatException e) {
      send(exchange, 400, error("start needs at=<epoch milliseconds>"));
      return;
    }
    if (control.start(at)) {
      send(exchange, 202, "{\"startAt\":" + at + "}");
    } else {
      send(
          exchange,
          409,
          error("already given another start time: " + control.startAt().orElseThrow()));
    }
  }

  String progressJson() {
    GeneratorShare share = control.share();
    LiveStats live = control.live();
    var json =
        new StringBuilder("{\"generator\":")
            .append(share.index())
            .append(",\"generators\":")
            .append(share.count())
            .append(",\"phase\":\"")
            .append(phase())
            .append("\",\"startAt\":")
            .append(control.startAt().map(String::valueOf).orElse("null"))
            .append(",\"measuring\":")
            .append(live.measuring())
            .append(
                String.format(
                    java.util.Locale.ROOT, ",\"elapsedSeconds\":%.3f", live.elapsedSeconds()))
            .append(
                String.format(
                    java.util.Locale.ROOT, ",\"measuredSeconds\":%.3f", live.measuredSeconds()))
            .append(",\"requests\":")
            .append(live.requests())
            .append(",\"errors\":")
            .append(live.errors())
            .append(",\"non2xx\":")
            .append(live.non2xx());
    if (control.abortReason() != null) {
      json.append(",\"aborted\":").append(JsonSummary.quote(control.abortReason()));
    }
    if (live.measuring()) {
      json.append(",\"histogram\":\"").append(JsonSummary.encode(live.measured())).append('"');
    }
    return json.append('}').toString();
  }

  private String phase() {
    return control.phase().name().toLowerCase(java.util.Locale.ROOT);
  }

  private static String param(String query, String name) {
    if (query != null) {
      for (String pair : query.split("&")) {
        if (pair.startsWith(name + "=")) {
          return pair.substring(name.length() + 1);
        }
      }
    }
    return "";
  }

  private static boolean expect(HttpExchange exchange, String method, String wanted)
      throws IOException {
    if (wanted.equals(method)) {
      return true;
    }
    exchange.getResponseHeaders().set("Allow", wanted);
    send(exchange, 405, error(method + " is not allowed here; use " + wanted));
    return false;
  }

  private static String error(String message) {
    return "{\"error\":" + JsonSummary.quote(message) + "}";
  }

  private static void send(HttpExchange exchange, int status, String json) throws IOException {
    send(exchange, status, json, "application/json");
  }

  private static void send(HttpExchange exchange, int status, String text, String type)
      throws IOException {
    byte[] body = text.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", type);
    exchange.sendResponseHeaders(status, body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
