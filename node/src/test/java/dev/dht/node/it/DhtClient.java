package dev.dht.node.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublisher;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A small client of one node's public API over {@link HttpClient} (HTTP/1.1, keep-alive). Calls
 * block and return the reply; a refused connection surfaces as {@link UncheckedIOException}.
 */
public final class DhtClient implements AutoCloseable {
  /** The answer to one request. */
  public record Reply(int status, byte[] body, java.net.http.HttpHeaders headers) {
    public String text() {
      return new String(body, StandardCharsets.UTF_8);
    }

    public String header(String name) {
      return headers.firstValue(name).orElse(null);
    }

    @Override
    public String toString() {
      return status + " " + (body.length > 200 ? body.length + " bytes" : "'" + text() + "'");
    }
  }

  private static final Duration TIMEOUT = Duration.ofSeconds(30);
  private static final String SECRET_HEADER = "X-Dht-Cluster-Secret";

  private final HttpClient http;
  private final String base;
  private final Supplier<String> adminSecret;

  public DhtClient(int port) {
    this(port, () -> null);
  }

  /** A client that sends {@code adminSecret} (when not null) on {@code /v0/admin/} requests. */
  public DhtClient(int port, Supplier<String> adminSecret) {
    this.adminSecret = adminSecret;
    this.base = "http://127.0.0.1:" + port;
    this.http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
  }

  public Reply put(String key, byte[] value) {
    return put(key, value, null, null);
  }

  public Reply put(String key, String value) {
    return put(key, value.getBytes(StandardCharsets.UTF_8), null, null);
  }

  public Reply put(String key, String value, Integer ack, Integer from) {
    return put(key, value.getBytes(StandardCharsets.UTF_8), ack, from);
  }

  public Reply put(String key, byte[] value, Integer ack, Integer from) {
    return send("PUT", entity(key, ack, from), BodyPublishers.ofByteArray(value));
  }

  public Reply get(String key) {
    return get(key, null, null);
  }

  public Reply get(String key, Integer ack, Integer from) {
    return send("GET", entity(key, ack, from), BodyPublishers.noBody());
  }

  public Reply delete(String key) {
    return delete(key, null, null);
  }

  public Reply delete(String key, Integer ack, Integer from) {
    return send("DELETE", entity(key, ack, from), BodyPublishers.noBody());
  }

  /** Any request; {@code target} is the path and query, already encoded. */
  public Reply send(String method, String target, BodyPublisher body) {
    return send(method, target, body, Map.of());
  }

  public Reply send(String method, String target, BodyPublisher body, Map<String, String> headers) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(base + target)).timeout(TIMEOUT).method(method, body);
    headers.forEach(request::header);
    String secret = target.startsWith("/v0/admin/") ? adminSecret.get() : null;
    if (secret != null && !headers.containsKey(SECRET_HEADER)) {
      request.header(SECRET_HEADER, secret);
    }
    try {
      var response = http.send(request.build(), BodyHandlers.ofByteArray());
      return new Reply(response.statusCode(), response.body(), response.headers());
    } catch (IOException e) {
      throw new UncheckedIOException(method + " " + target + " failed: " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  /** {@code /v0/entity?id=K[&ack=A][&from=F]} with the key percent-encoded. */
  public static String entity(String key, Integer ack, Integer from) {
    StringBuilder target = new StringBuilder("/v0/entity?id=").append(encode(key));
    if (ack != null) {
      target.append("&ack=").append(ack);
    }
    if (from != null) {
      target.append("&from=").append(from);
    }
    return target.toString();
  }

  /** Percent-encodes every UTF-8 byte outside the unreserved set (a space becomes %20, not +). */
  public static String encode(String value) {
    StringBuilder out = new StringBuilder();
    for (byte b : value.getBytes(StandardCharsets.UTF_8)) {
      int c = b & 0xff;
      if ((c >= 'a' && c <= 'z')
          || (c >= 'A' && c <= 'Z')
          || (c >= '0' && c <= '9')
          || c == '-'
          || c == '_'
          || c == '.'
          || c == '~') {
        out.append((char) c);
      } else {
        out.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)));
        out.append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
      }
    }
    return out.toString();
  }

  @Override
  public void close() {
    http.shutdownNow();
  }
}
