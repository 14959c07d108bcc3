package dev.dht.operator.cluster;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;

/**
 * The operator tests' view of the real nodes a {@link StandInKubelet} runs on local ports: their
 * public API with the JDK's HttpClient, and the cluster's status, awaited.
 */
final class LocalNodes {
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private final int[] ports;

  LocalNodes(int[] ports) {
    this.ports = ports;
  }

  /** PUTs {@code version} as the value of {@code key} at ack/3 through node i; -1 if no answer. */
  int put(int node, String key, long version, int ack) {
    try {
      return HTTP.send(
              HttpRequest.newBuilder(entity(node, key, ack))
                  .timeout(Duration.ofSeconds(10))
                  .PUT(HttpRequest.BodyPublishers.ofString(Long.toString(version)))
                  .build(),
              HttpResponse.BodyHandlers.discarding())
          .statusCode();
    } catch (IOException e) {
      return -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  /** GETs {@code key} at ack/3 through node i; null if no answer. */
  HttpResponse<String> get(int node, String key, int ack) {
    try {
      return HTTP.send(
          HttpRequest.newBuilder(entity(node, key, ack)).timeout(Duration.ofSeconds(10)).build(),
          HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }

  /** The body of node i's {@code GET path} (e.g. a range, the admin status). */
  String text(int node, String path) throws IOException, InterruptedException {
    return HTTP.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + ports[node] + path)).build(),
            HttpResponse.BodyHandlers.ofString())
        .body();
  }

  /**
   * Whether node i holds no hints for others (the writes they missed are handed over); its admin
   * status needs the cluster {@code secret}.
   */
  boolean handedOverHints(int node, String secret) throws IOException, InterruptedException {
    return adminStatus(node, secret).contains("\"hints\":{\"pending\":0,");
  }

  /** Node i's admin status, which needs the cluster {@code secret}. */
  String adminStatus(int node, String secret) throws IOException, InterruptedException {
    return HTTP.send(
            HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + ports[node] + "/v0/admin/status"))
                .header("X-Dht-Cluster-Secret", secret)
                .build(),
            HttpResponse.BodyHandlers.ofString())
        .body();
  }

  /** Node i's own replica of the keys {@code <prefix>-<n>}: key → value (a number). */
  Map<String, Long> localValues(int node, String prefix) throws IOException, InterruptedException {
    String body = text(node, "/v0/entities?start=" + prefix + "-&end=" + prefix + ".");
    Map<String, Long> values = new HashMap<>();
    Matcher m = Pattern.compile("(" + Pattern.quote(prefix) + "-\\d+)\\s+(\\d+)").matcher(body);
    while (m.find()) {
      values.put(m.group(1), Long.parseLong(m.group(2)));
    }
    return values;
  }

  private URI entity(int node, String key, int ack) {
    return URI.create(
        "http://127.0.0.1:" + ports[node] + "/v0/entity?id=" + key + "&ack=" + ack + "&from=3");
  }

  /** The DhtCluster's status once it satisfies {@code condition}. */
  static DhtClusterStatus awaitStatus(
      KubernetesClient client,
      String ns,
      String name,
      Duration timeout,
      Predicate<DhtClusterStatus> condition) {
    return Awaitility.await()
        .atMost(timeout)
        .pollInterval(Duration.ofMillis(200))
        .ignoreExceptions()
        .until(
            () ->
                client.resources(DhtCluster.class).inNamespace(ns).withName(name).get().getStatus(),
            s -> s != null && condition.test(s));
  }
}
