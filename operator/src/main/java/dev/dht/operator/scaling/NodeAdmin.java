package dev.dht.operator.scaling;

import dev.dht.contract.AdminStatus;
import dev.dht.operator.bounded.BoundedHttp;
import dev.dht.operator.bounded.ReadLimit;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.function.UnaryOperator;

/**
 * The operator's client of the nodes' admin endpoints ({@code /v0/admin/status}, {@code POST
 * /v0/admin/stream|cleanup}, a load test's profiles; with the cluster secret), on their admin port,
 * over TLS trusting the cluster's CAs when the cluster has TLS ({@link NodeAccess}). Blocking, with
 * short timeouts: it runs on a reconciler thread. {@code address} maps a node's admin address to
 * the address to call (the same in a cluster; tests map pod DNS names to local ports).
 */
public final class NodeAdmin {
  private static final Duration TIMEOUT = Duration.ofSeconds(2);
  private static final String SECRET_HEADER = "X-Dht-Cluster-Secret";

  /**
   * {@code GET /v0/admin/status}: about 2 KiB for three members, growing by about 100 bytes a
   * member; 256 KiB leaves room for a thousand members and long error texts. Asked of every node
   * every 2 to 30 s, so also kept short in time.
   */
  static final ReadLimit STATUS = new ReadLimit("a node's /v0/admin/status", 256 * 1024, TIMEOUT);

  /** The answer to starting a stream or clean-up: a line of text, not read. */
  static final ReadLimit STARTED = new ReadLimit("a node's answer", 16 * 1024, TIMEOUT);

  /** Blocking calls of at most 2 s each; virtual threads, so that many nodes cost nothing. */
  private static final Executor POOL = Executors.newVirtualThreadPerTaskExecutor();

  private static final int MAX_TRUST_BUNDLES = 64;
  private final HttpClient plain = builder().build();

  /**
   * One client per trust bundle (a cluster's CAs): its connections are kept alive between calls.
   */
  private final Map<String, HttpClient> trusting = new ConcurrentHashMap<>();

  private final UnaryOperator<String> address;

  public NodeAdmin(UnaryOperator<String> address) {
    this.address = address;
  }

  /**
   * What the nodes report, asked all at once (one admin call each, in parallel): by ordinal, the
   * URL to ask (null: no pod, so unreachable) and whether its pod is Ready.
   */
  public Map<Integer, NodeView> views(
      Map<Integer, String> urls, Map<Integer, Boolean> podReady, NodeAccess access) {
    Map<Integer, CompletableFuture<NodeView>> asked = new TreeMap<>();
    urls.forEach((ordinal, url) -> {
      boolean ready = podReady.getOrDefault(ordinal, false);
      asked.put(
          ordinal,
          url == null
              ? CompletableFuture.completedFuture(NodeView.unreachable(ordinal, ready))
              : CompletableFuture.supplyAsync(() -> view(ordinal, url, ready, access), POOL));
    });
    Map<Integer, NodeView> views = new TreeMap<>();
    asked.forEach((ordinal, view) -> views.put(ordinal, view.join()));
    return views;
  }

  /** What the node at {@code url} reports; unreachable if it does not answer in time. */
  public NodeView view(int ordinal, String url, boolean podReady, NodeAccess access) {
    try {
      var answer =
          BoundedHttp.send(client(access), request(url, "status", access).GET().build(), STATUS);
      if (answer.status() != 200) {
        return NodeView.unreachable(ordinal, podReady);
      }
      return NodeView.of(ordinal, podReady, AdminStatus.fromJson(answer.text()));
    } catch (IOException | IllegalArgumentException e) {
      return NodeView.unreachable(ordinal, podReady);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return NodeView.unreachable(ordinal, podReady);
    }
  }

  /** Asks the node at {@code url} to start {@code action}; true if it started (202). */
  public boolean start(String url, String action, NodeAccess access) {
    try {
      return BoundedHttp.send(
                  client(access),
                  request(url, action, access).POST(HttpRequest.BodyPublishers.noBody()).build(),
                  STARTED)
              .status()
          == 202;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /**
   * Gives the node at {@code url} the users document {@code json} ({@code PUT /v0/admin/users}); a
   * node keeps the one of the highest revision. True if it answered 200.
   */
  public boolean putUsers(String url, String json, NodeAccess access) {
    try {
      return BoundedHttp.send(
                  client(access),
                  request(url, "users", access)
                      .header("Content-Type", "application/json")
                      .PUT(HttpRequest.BodyPublishers.ofString(json))
                      .build(),
                  STARTED)
              .status()
          == 200;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /**
   * {@code GET /v0/admin/<what>} of the node at {@code url}, read within {@code limit} (whose time
   * also bounds the wait for the headers): for answers larger or slower than a status, such as a
   * profile's flame graph.
   */
  public BoundedHttp.Answer get(String url, String what, NodeAccess access, ReadLimit limit)
      throws IOException, InterruptedException {
    return BoundedHttp.send(
        client(access), request(url, what, access, limit.within()).GET().build(), limit);
  }

  /**
   * {@code POST /v0/admin/<what>} (a query may follow) to the node at {@code url}, without a body;
   * its answer, read within {@code limit}.
   */
  public BoundedHttp.Answer post(String url, String what, NodeAccess access, ReadLimit limit)
      throws IOException, InterruptedException {
    return BoundedHttp.send(
        client(access),
        request(url, what, access, limit.within())
            .POST(HttpRequest.BodyPublishers.noBody())
            .build(),
        limit);
  }

  private HttpRequest.Builder request(String url, String what, NodeAccess access) {
    return request(url, what, access, TIMEOUT);
  }

  private HttpRequest.Builder request(
      String url, String what, NodeAccess access, Duration timeout) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(
                URI.create(address.apply(access.adminAddress(url)) + "/v0/admin/" + what))
            .timeout(timeout);
    if (access.secret() != null) {
      request.header(SECRET_HEADER, access.secret());
    }
    return request;
  }

  private HttpClient client(NodeAccess access) {
    if (access.trustedCas() == null) {
      return plain;
    }
    if (trusting.size() > MAX_TRUST_BUNDLES) { // CA rotations over a long life
      trusting.clear();
    }
    return trusting.computeIfAbsent(
        access.trustedCas(), cas -> builder().sslContext(access.sslContext()).build());
  }

  private static HttpClient.Builder builder() {
    return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(TIMEOUT);
  }
}
