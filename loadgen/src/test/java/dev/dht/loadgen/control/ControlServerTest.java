package dev.dht.loadgen.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A real control server on a free port, asked with the JDK's HTTP client as the operator asks it:
 * with a token, every path but {@code /metrics} refuses a request without it, and a refused request
 * changes nothing; without one, every path is open.
 */
class ControlServerTest {
  private static final String TOKEN = "c2VjcmV0LXRva2VuLW9mLXRoZS10ZXN0LTAxMjM0NTY3";
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private final RunControl control = new RunControl(GeneratorShare.ALONE, Duration.ofSeconds(30));

  @ParameterizedTest
  @CsvSource({
    "GET, /progress",
    "POST, /start?at=1700000000000",
    "POST, /abort?reason=stolen",
    "GET, /result",
    "POST, /release",
    "GET, /no-such-path"
  })
  void withATokenEveryControlPathRefusesARequestWithoutIt(String method, String path)
      throws Exception {
    try (var server = ControlServer.start(0, control, TOKEN)) {
      var none = send(server, method, path, null);
      assertThat(none.statusCode()).isEqualTo(401);
      assertThat(none.headers().firstValue("WWW-Authenticate"))
          .get()
          .asString()
          .startsWith("Bearer");
      assertThat(none.body()).contains("needs Authorization: Bearer");

      for (String wrong :
          new String[] {
            "Bearer nope",
            "Bearer " + TOKEN.substring(1),
            "Bearer " + TOKEN + "x",
            "Basic " + TOKEN,
            TOKEN
          }) {
        var refused = send(server, method, path, wrong);
        assertThat(refused.statusCode()).as(wrong).isEqualTo(401);
      }
    }
    assertThat(control.startAt()).as("a refused start sets no time").isEmpty();
    assertThat(control.abortReason()).as("a refused abort stops nothing").isNull();
  }

  @Test
  void theRightTokenIsServed() throws Exception {
    try (var server = ControlServer.start(0, control, TOKEN)) {
      String bearer = "Bearer " + TOKEN;
      var progress = send(server, "GET", "/progress", bearer);
      assertThat(progress.statusCode()).isEqualTo(200);
      assertThat(progress.body()).contains("\"phase\":\"waiting\"");
      assertThat(send(server, "POST", "/start?at=1700000000000", bearer).statusCode())
          .isEqualTo(202);
      assertThat(control.startAt()).contains(1_700_000_000_000L);
      assertThat(send(server, "GET", "/result", bearer).statusCode())
          .as("not finished")
          .isEqualTo(409);
      assertThat(send(server, "POST", "/abort?reason=over", "bearer " + TOKEN).statusCode())
          .as("the scheme in any case")
          .isEqualTo(202);
      assertThat(control.abortReason()).isEqualTo("over");
      control.finished("{\"requests\":1}");
      assertThat(send(server, "GET", "/result", bearer).body()).isEqualTo("{\"requests\":1}");
      assertThat(send(server, "POST", "/release", bearer).statusCode()).isEqualTo(202);
    }
  }

  @Test
  void metricsStayOpenForPrometheus() throws Exception {
    try (var server = ControlServer.start(0, control, TOKEN)) {
      var metrics = send(server, "GET", "/metrics", null);
      assertThat(metrics.statusCode()).isEqualTo(200);
      assertThat(metrics.body()).contains("dht_loadgen_");
    }
  }

  @Test
  void withoutATokenEveryPathIsOpen() throws Exception {
    try (var server = ControlServer.start(0, control)) {
      assertThat(send(server, "GET", "/progress", null).statusCode()).isEqualTo(200);
      assertThat(send(server, "POST", "/start?at=5", null).statusCode()).isEqualTo(202);
      assertThat(send(server, "GET", "/metrics", null).statusCode()).isEqualTo(200);
    }
  }

  private static HttpResponse<String> send(
      ControlServer server, String method, String path, String authorization) throws Exception {
    var request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
            .method(method, HttpRequest.BodyPublishers.noBody());
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }
}
