package dev.dht.operator.loadtest.job;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.dht.operator.bounded.BoundedHttp;
import dev.dht.operator.bounded.ReadLimit;
import dev.dht.operator.kube.Owners;
import dev.dht.operator.loadtest.DhtLoadTest;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.function.UnaryOperator;
import org.HdrHistogram.Histogram;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Talks to a test's generator pods over their control port (the load generator's {@code
 * ControlServer}): reads where each stands, stops them early (abortOnFail), and for a parallel test
 * gives them their start time and moves each finished generator's result into the test's generators
 * ConfigMap before letting it exit. Called on a reconciler thread every few seconds (the
 * reconciler's {@code POLL}) while the Job runs; every call is bounded by short timeouts, and all
 * pods are asked at once. Every request carries the test's control token, which the generators
 * demand.
 */
public final class GeneratorPods {
  static final int CONTROL_PORT = 9090;
  public static final String INDEX_LABEL = "batch.kubernetes.io/job-completion-index";
  private static final String KEY_PREFIX = "generator-";
  private static final Duration TIMEOUT = Duration.ofSeconds(2);

  /**
   * {@code GET /progress}: counters and the measured histogram so far. A real one is a few KiB (a
   * histogram of 3 significant digits compresses well); even one with every bucket of a day's range
   * filled encodes under 400 KiB. Read every POLL from every generator, so the time is the short
   * call timeout.
   */
  static final ReadLimit PROGRESS = new ReadLimit("a generator's /progress", 1024 * 1024, TIMEOUT);

  /**
   * {@code GET /result}: the summary and the whole measured histogram, the same size as a progress
   * (a few KiB); all of a test's results share one ConfigMap of at most 1 MiB anyway.
   */
  static final ReadLimit RESULT = new ReadLimit("a generator's /result", 1024 * 1024, TIMEOUT);

  /** The answers to start, abort and release: a line of text, only logged. */
  static final ReadLimit ACK = new ReadLimit("a generator's answer", 16 * 1024, TIMEOUT);

  private static final Logger LOG = LoggerFactory.getLogger(GeneratorPods.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final KubernetesClient client;
  private final UnaryOperator<String> address;
  private final String fieldManager;
  private final HttpClient http;
  private final Optional<String> controlToken;

  /**
   * {@code http}: see {@link #httpClient()}; {@code address} maps a generator's control URL to the
   * one to call (tests: local ports); {@code controlToken}: the test's ({@link ControlToken#read}),
   * sent as a bearer token with every control request (none: the generators will refuse them).
   */
  public GeneratorPods(
      KubernetesClient client,
      HttpClient http,
      UnaryOperator<String> address,
      String fieldManager,
      Optional<String> controlToken) {
    this.client = client;
    this.http = http;
    this.address = address;
    this.fieldManager = fieldManager;
    this.controlToken = controlToken;
  }

  /** The client to share between calls: short connect timeout, HTTP/1.1 (the JDK server's). */
  public static HttpClient httpClient() {
    return HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(TIMEOUT)
        .build();
  }

  static String resultsName(String testName) {
    return testName + "-generators";
  }

  /**
   * Where every generator pod of {@code job} stands (asked all at once), and why the ones not
   * running yet wait.
   */
  public Seen seen(Job job) {
    var pods = pods(job);
    return new Seen(progress(pods), PodWait.reasons(pods));
  }

  public record Seen(List<GeneratorProgress> progress, List<String> waiting) {}

  /**
   * One round of a parallel test: the start time once all wait (again to any that missed it), and
   * each finished generator's result stored, then released. Returns what it decided.
   */
  public Coordination coordinate(
      DhtLoadTest test, List<GeneratorProgress> seen, int count, Long knownStartAt) {
    var collected = new TreeMap<>(collected(test));
    var next =
        Coordination.next(
            count, seen, knownStartAt, collected.keySet(), System.currentTimeMillis());
    for (var g : next.toStart()) {
      post(g, "/start?at=" + next.startAt());
    }
    for (var g : next.toCollect()) {
      collect(test, g, collected);
    }
    return next;
  }

  /** Tells every generator that answers to stop. */
  public void abort(List<GeneratorProgress> seen, String reason) {
    for (var g : seen) {
      if (g.address() != null) {
        post(g, "/abort?reason=" + URLEncoder.encode(reason, StandardCharsets.UTF_8));
      }
    }
  }

  /**
   * The results stored so far, by generator index; none if the ConfigMap is not this test's (made
   * before it, by someone else): results are only taken from where the operator put them.
   */
  public Map<Integer, String> collected(DhtLoadTest test) {
    var map = resultsMap(test);
    var results = new TreeMap<Integer, String>();
    if (map != null && map.getData() != null && Owners.isOwnedBy(map, test)) {
      map.getData()
          .forEach((key, value) -> {
            if (key.startsWith(KEY_PREFIX) && key.endsWith(".json")) {
              try {
                results.put(
                    Integer.parseInt(key.substring(KEY_PREFIX.length(), key.length() - 5)), value);
              } catch (NumberFormatException e) {
                // not one of ours
              }
            }
          });
    }
    return results;
  }

  private ConfigMap resultsMap(DhtLoadTest test) {
    return client
        .configMaps()
        .inNamespace(test.getMetadata().getNamespace())
        .withName(resultsName(test.getMetadata().getName()))
        .get();
  }

  /**
   * The Job's pods by completion index (the newest, should an index have several): those the Job
   * controls ({@link JobPods#ofJob}), never merely those with its labels.
   */
  public List<Pod> pods(Job job) {
    var byIndex = new TreeMap<Integer, Pod>();
    for (var pod : JobPods.ofJob(client, job)) {
      byIndex.merge(
          indexOf(pod),
          pod,
          (a, b) ->
              a.getMetadata()
                          .getCreationTimestamp()
                          .compareTo(b.getMetadata().getCreationTimestamp())
                      >= 0
                  ? a
                  : b);
    }
    return List.copyOf(byIndex.values());
  }

  public static Map<Integer, String> podNames(List<Pod> pods) {
    var names = new TreeMap<Integer, String>();
    pods.forEach(p -> names.put(indexOf(p), p.getMetadata().getName()));
    return names;
  }

  /** The completion index of an indexed Job's pod; 0 for the one pod of a single generator. */
  static int indexOf(Pod pod) {
    var labels = pod.getMetadata().getLabels();
    String index = labels == null ? null : labels.get(INDEX_LABEL);
    return index == null ? 0 : Integer.parseInt(index);
  }

  private List<GeneratorProgress> progress(List<Pod> pods) {
    var asked = new ArrayList<CompletableFuture<GeneratorProgress>>();
    for (var pod : pods) {
      int index = indexOf(pod);
      String name = pod.getMetadata().getName();
      String ip = pod.getStatus() == null ? null : pod.getStatus().getPodIP();
      if (ip == null || ip.isBlank()) {
        asked.add(CompletableFuture.completedFuture(GeneratorProgress.silent(index, name, null)));
        continue;
      }
      String base = address.apply("http://" + ip + ":" + CONTROL_PORT);
      asked.add(
          BoundedHttp.sendAsync(http, request(base + "/progress").GET().build(), PROGRESS)
              .thenApply(answer ->
                  answer.status() == 200
                      ? parse(index, name, base, readTree(answer.text()))
                      : GeneratorProgress.silent(index, name, base))
              .exceptionally(e -> GeneratorProgress.silent(index, name, base)));
    }
    return asked.stream().map(CompletableFuture::join).toList();
  }

  static GeneratorProgress parse(int index, String pod, String base, JsonNode body) {
    var at = body.path("startAt");
    Histogram measured = null;
    if (body.path("histogram").isTextual()) {
      try {
        measured = EncodedHistogram.decode(body.path("histogram").asText());
      } catch (IllegalArgumentException e) {
        // a view only: the final result is read apart
      }
    }
    return new GeneratorProgress(
        index,
        pod,
        base,
        body.path("phase").asText(null),
        at.isNumber() ? at.asLong() : null,
        body.path("elapsedSeconds").asDouble(),
        body.path("measuring").asBoolean(),
        body.path("measuredSeconds").asDouble(),
        body.path("requests").asLong(),
        body.path("errors").asLong(),
        body.path("non2xx").asLong(),
        measured);
  }

  /**
   * Stores the generator's result with the others ({@code collected}, updated), then lets it exit.
   */
  private void collect(DhtLoadTest test, GeneratorProgress g, Map<Integer, String> collected) {
    String result;
    try {
      var answer = BoundedHttp.send(http, request(g.address() + "/result").GET().build(), RESULT);
      if (answer.status() != 200) {
        return;
      }
      result = answer.text();
      GeneratorResult.parse(result);
    } catch (Exception e) {
      LOG.info(
          "result of generator {} ({}) not readable yet: {}", g.index(), g.pod(), e.toString());
      return;
    }
    var existing = resultsMap(test);
    if (existing != null && !Owners.isOwnedBy(existing, test)) {
      // someone else's ConfigMap of that name: neither written into nor trusted
      LOG.warn(
          "ConfigMap {} is not test {}'s: generator {}'s result is not stored there",
          existing.getMetadata().getName(),
          test.getMetadata().getName(),
          g.index());
      return;
    }
    collected.put(g.index(), result);
    var stored = new TreeMap<String, String>();
    collected.forEach((index, json) -> stored.put(KEY_PREFIX + index + ".json", json));
    client
        .resource(
            LoadTestModel.ownedConfigMap(test, resultsName(test.getMetadata().getName()), stored))
        .fieldManager(fieldManager)
        .forceConflicts()
        .serverSideApply();
    post(g, "/release");
  }

  private void post(GeneratorProgress g, String path) {
    try {
      var answer =
          BoundedHttp.send(
              http,
              request(g.address() + path).POST(HttpRequest.BodyPublishers.noBody()).build(),
              ACK);
      if (answer.status() >= 300) {
        LOG.info(
            "generator {} ({}) answered {} to {}: {}",
            g.index(),
            g.pod(),
            answer.status(),
            path,
            answer.text());
      }
    } catch (Exception e) {
      LOG.info("generator {} ({}) not reached for {}: {}", g.index(), g.pod(), path, e.toString());
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private HttpRequest.Builder request(String url) {
    var request = HttpRequest.newBuilder(URI.create(url)).timeout(TIMEOUT);
    controlToken.ifPresent(token -> request.header("Authorization", "Bearer " + token));
    return request;
  }

  private static JsonNode readTree(String body) {
    try {
      return JSON.readTree(body);
    } catch (Exception e) {
      return JSON.createObjectNode();
    }
  }
}
