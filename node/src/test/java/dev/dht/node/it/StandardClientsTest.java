package dev.dht.node.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The API table of API.md through the standard clients users have: the JDK's HttpClient at its
 * defaults (it offers an h2c upgrade on every request) and forced to HTTP/1.1, curl in both modes,
 * and the Vert.x WebClient. Every client must get the same status and body for every row.
 */
class StandardClientsTest {
  private static final int MAX_VALUE = 1024;

  @TempDir static Path root;
  static LocalCluster cluster;
  static Vertx vertx;

  @BeforeAll
  static void start() {
    cluster = LocalCluster.start(root, 3, "--max-value-bytes", Integer.toString(MAX_VALUE));
    vertx = Vertx.vertx();
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
    if (vertx != null) {
      vertx.close().await();
    }
  }

  /** One exchange: status and body. */
  record Answer(int status, String body) {}

  /** One row of the table; {K} is the client's own key prefix, {BIG} a value over the limit. */
  record Row(String method, String target, String body, int status, String expectedBody) {}

  private static final String BIG = "b".repeat(MAX_VALUE + 1);

  private static final List<Row> TABLE =
      List.of(
          new Row("PUT", "/v0/entity?id={K}", "value", 201, ""),
          new Row("GET", "/v0/entity?id={K}", null, 200, "value"),
          new Row("GET", "/v0/entry?id={K}&ack=3&from=3", null, 200, "value"),
          new Row("PUT", "/v0/entity?id={K}-empty", "", 201, ""),
          new Row("GET", "/v0/entity?id={K}-empty", null, 200, ""),
          new Row("GET", "/v0/entities?start={K}-empty&end={K}-emptz", null, 200, "{K}-empty\n"),
          new Row("DELETE", "/v0/entity?id={K}", null, 202, ""),
          new Row("GET", "/v0/entity?id={K}", null, 404, ""),
          new Row("DELETE", "/v0/entity?id={K}-never", null, 202, ""),
          new Row("PUT", "/v0/entity?id=", "x", 400, null),
          new Row("PUT", "/v0/entity?id={K}&ack=abc", "x", 400, null),
          new Row("PUT", "/v0/entity?id={K}&ack=3&from=2", "x", 400, null),
          new Row("GET", "/v0/entity?id={K}&from=4", null, 400, null),
          new Row("PUT", "/v0/entity?id={K}-big", BIG, 413, null),
          new Row("GET", "/v0/entity?id={K}-big", null, 404, ""),
          new Row("POST", "/v0/entity?id={K}", "x", 405, null),
          new Row("GET", "/nowhere", null, 400, null),
          new Row("PUT", "/nowhere", "x", 400, null),
          new Row("GET", "/v0/entities", null, 400, null),
          new Row("GET", "/v0/status", null, 200, null));

  /** A client under test: sends one request to a node's port. */
  interface Client {
    Answer send(int port, String method, String target, String body) throws Exception;
  }

  @Test
  void everyClientGetsTheSameAnswerForEveryRow() throws Exception {
    HttpClient jdkDefault = HttpClient.newHttpClient(); // HTTP/2 preferred: offers h2c upgrades
    HttpClient jdk11 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    WebClient webClient = WebClient.create(vertx);
    Map<String, Client> clients = new LinkedHashMap<>();
    clients.put("jdk-default", (port, m, t, b) -> jdk(jdkDefault, port, m, t, b));
    clients.put("jdk-http11", (port, m, t, b) -> jdk(jdk11, port, m, t, b));
    clients.put("curl-http11", (port, m, t, b) -> curl(port, m, t, b, "--http1.1"));
    clients.put("curl", (port, m, t, b) -> curl(port, m, t, b));
    clients.put("vertx-webclient", (port, m, t, b) -> vertx(webClient, port, m, t, b));
    try {
      Map<String, List<Answer>> answers = new LinkedHashMap<>();
      int node = 0;
      for (var client : clients.entrySet()) {
        String prefix = "std-" + client.getKey();
        int port = cluster.port(node++ % cluster.size());
        List<Answer> got = new ArrayList<>();
        for (Row row : TABLE) {
          String target = row.target().replace("{K}", prefix);
          Answer answer = client.getValue().send(port, row.method(), target, row.body());
          String what = client.getKey() + ": " + row.method() + " " + target;
          assertThat(answer.status()).as(what + " -> '%s'", answer.body()).isEqualTo(row.status());
          if (row.expectedBody() != null) {
            assertThat(answer.body()).as(what).isEqualTo(row.expectedBody().replace("{K}", prefix));
          } else if (row.status() >= 400) {
            assertThat(answer.body()).as(what + ": a reason").isNotBlank();
          }
          got.add(new Answer(answer.status(), answer.body().replace(prefix, "{K}")));
        }
        answers.put(client.getKey(), got);
      }
      List<Answer> reference = answers.get("jdk-http11");
      answers.forEach((name, got) -> assertThat(got).as(name).isEqualTo(reference));
    } finally {
      webClient.close();
      jdkDefault.close();
      jdk11.close();
    }
  }

  private static Answer jdk(HttpClient http, int port, String method, String target, String body)
      throws IOException, InterruptedException {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + target))
            .timeout(Duration.ofSeconds(30))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body))
            .build();
    var response = http.send(request, BodyHandlers.ofString());
    return new Answer(response.statusCode(), response.body());
  }

  private static Answer vertx(
      WebClient client, int port, String method, String target, String body) {
    var request = client.request(HttpMethod.valueOf(method), port, "127.0.0.1", target);
    HttpResponse<Buffer> response =
        (body == null ? request.send() : request.sendBuffer(Buffer.buffer(body))).await();
    return new Answer(
        response.statusCode(), response.body() == null ? "" : response.bodyAsString());
  }

  private static Answer curl(int port, String method, String target, String body, String... flags)
      throws IOException, InterruptedException {
    Path out = Files.createTempFile(root, "curl", ".out");
    List<String> command = new ArrayList<>(List.of("curl", "-sS", "-o", out.toString()));
    command.addAll(List.of(flags));
    command.addAll(List.of("-w", "%{http_code}", "-X", method, "--max-time", "30"));
    if (body != null) {
      Path in = Files.createTempFile(root, "curl", ".in");
      Files.writeString(in, body);
      command.addAll(List.of("--data-binary", "@" + in));
    }
    command.add("http://127.0.0.1:" + port + target);
    Process curl = new ProcessBuilder(command).redirectErrorStream(true).start();
    if (!curl.waitFor(60, TimeUnit.SECONDS)) {
      curl.destroyForcibly();
      throw new IllegalStateException("curl did not finish: " + command);
    }
    String status = new String(curl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (curl.exitValue() != 0) {
      throw new UncheckedIOException(
          new IOException("curl exited " + curl.exitValue() + ": " + status + " " + command));
    }
    return new Answer(Integer.parseInt(status.strip()), Files.readString(out));
  }
}
