package dev.dht.loadgen.engine;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Asks dht nodes to profile themselves (their {@code POST /v0/admin/profile}, with the cluster
 * secret) for exactly the measured window: sent when the window opens, for its duration, so that
 * the warm-up is never in the flame graphs. Runs on a virtual thread of its own; the outcome of
 * each request is printed, and a failure only costs the profile, never the run.
 */
public final class ProfileTrigger {
  private static final String SECRET_HEADER = "X-Dht-Cluster-Secret";

  private final List<URI> nodes;
  private final String events;
  private final Path secretFile;

  public ProfileTrigger(List<URI> nodes, String events, Path secretFile) {
    this.nodes = List.copyOf(nodes);
    this.events = events;
    this.secretFile = secretFile;
  }

  /** Starts the thread that waits for {@code measureFromNanos} on {@code clock}, then asks. */
  Thread armFor(RunWindow window, Duration duration, LongSupplier clock, PrintWriter out) {
    return Thread.ofVirtual()
        .name("profile-trigger")
        .start(() -> {
          try {
            long wait = window.measureFromNanos() - clock.getAsLong();
            if (wait > 0) {
              TimeUnit.NANOSECONDS.sleep(wait);
            }
            askAll(Math.max(1, duration.toSeconds()), out);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        });
  }

  private void askAll(long seconds, PrintWriter out) throws InterruptedException {
    String secret;
    try {
      secret = secretFile == null ? null : Files.readString(secretFile).strip();
    } catch (IOException e) {
      say(out, "profile: cannot read the cluster secret: " + e.getMessage());
      return;
    }
    try (HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build()) {
      for (URI node : nodes) {
        var request =
            HttpRequest.newBuilder(
                    node.resolve("/v0/admin/profile?events=" + events + "&seconds=" + seconds))
                .timeout(Duration.ofSeconds(5))
                .POST(HttpRequest.BodyPublishers.noBody());
        if (secret != null) {
          request.header(SECRET_HEADER, secret);
        }
        try {
          var answer = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
          say(out, "profile " + node + ": " + answer.statusCode() + " " + answer.body().strip());
        } catch (IOException e) {
          say(out, "profile " + node + ": " + e);
        }
      }
    }
  }

  private static void say(PrintWriter out, String text) {
    if (out != null) {
      out.println(text);
      out.flush();
    }
  }
}
