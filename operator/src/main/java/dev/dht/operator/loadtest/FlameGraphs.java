package dev.dht.operator.loadtest;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Collects the flame graphs the profiled nodes made of a run's measured window (their {@code GET
 * /v0/admin/profile/<event>.html}), waiting a bounded while for a node still converting. Blocking,
 * with short timeouts: it runs on a reconciler thread once per finished test. {@code address} maps
 * a node URL to the address to call (the identity in a cluster).
 */
final class FlameGraphs {
  private static final Duration TIMEOUT = Duration.ofSeconds(5);
  private static final Duration WAIT_FOR_DONE = Duration.ofSeconds(30);

  /** What was collected, and what could not be (with why). */
  record Collected(List<Artifacts.Artifact> artifacts, List<String> missing) {}

  private final HttpClient http =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(TIMEOUT).build();
  private final UnaryOperator<String> address;

  FlameGraphs(UnaryOperator<String> address) {
    this.address = address;
  }

  Collected collect(LoadTestModel.Profiling profiling) {
    var artifacts = new ArrayList<Artifacts.Artifact>();
    var missing = new ArrayList<String>();
    for (String node : profiling.nodes()) {
      String pod = LoadTestModel.Profiling.podOf(node);
      String state = awaitDone(node);
      if (!"done".equals(state)) {
        missing.add("flame graphs of " + pod + ": its profile is " + state);
        continue;
      }
      for (String event : profiling.events().split(",")) {
        try {
          var html =
              http.send(
                  HttpRequest.newBuilder(
                          URI.create(address.apply(node) + "/v0/admin/profile/" + event + ".html"))
                      .timeout(TIMEOUT)
                      .build(),
                  HttpResponse.BodyHandlers.ofByteArray());
          if (html.statusCode() == 200) {
            artifacts.add(
                new Artifacts.Artifact(
                    "flame-" + pod + "-" + event + ".html", "text/html", html.body()));
          } else {
            missing.add("flame graph " + pod + " " + event + ": " + html.statusCode());
          }
        } catch (IOException e) {
          missing.add("flame graph " + pod + " " + event + ": " + e.getMessage());
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return new Collected(artifacts, missing);
        }
      }
    }
    return new Collected(List.copyOf(artifacts), List.copyOf(missing));
  }

  /** The node's profile state once it is no longer running (or after the bounded wait). */
  private String awaitDone(String node) {
    Instant deadline = Instant.now().plus(WAIT_FOR_DONE);
    String state = "unreachable";
    while (Instant.now().isBefore(deadline)) {
      try {
        var answer =
            http.send(
                HttpRequest.newBuilder(URI.create(address.apply(node) + "/v0/admin/profile"))
                    .timeout(TIMEOUT)
                    .build(),
                HttpResponse.BodyHandlers.ofString());
        var m = java.util.regex.Pattern.compile("\"state\":\"(\\w+)\"").matcher(answer.body());
        state = m.find() ? m.group(1) : "unknown";
        if (!"running".equals(state)) {
          return state;
        }
        Thread.sleep(500);
      } catch (IOException e) {
        state = "unreachable (" + e.getMessage() + ")";
        return state;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return state;
      }
    }
    return state;
  }
}
