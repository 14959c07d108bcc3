package dev.dht.operator.loadtest.site;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.dht.operator.kube.Owners;
import dev.dht.operator.loadtest.DhtLoadTest;
import dev.dht.operator.loadtest.job.LoadTestModel;
import dev.dht.operator.loadtest.report.Artifacts;
import dev.dht.operator.loadtest.report.ReportConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * The load test reports, read-only, on the operator's HTTP port ({@code kubectl port-forward}):
 * {@code /reports/} an index of the load tests with their verdicts, {@code /reports/<ns>/} those of
 * a namespace, {@code /reports/<ns>/<name>/} the test's report page, {@code
 * /reports/<ns>/<name>/<artifact>} an artifact (a flame graph). Only namespaces the operator
 * watches are served; anything else is 404. Reads the objects on each request (no cache: a report
 * page is rare).
 *
 * <p>Only for Kubernetes users, as kube-rbac-proxy lets them in: every request carries a bearer
 * token ({@code Authorization: Bearer}, or the cookie of {@link Login}), the apiserver says who it
 * is (TokenReview; none or an invalid one: 401) and whether they may {@code get} the namespace's
 * dhtloadtests, or the page's test by name (SubjectAccessReview; 403 otherwise). The index of every
 * namespace lists the tests of the namespaces the reader may get dhtloadtests in: all if they may
 * in every namespace (one review without a namespace), else one review per namespace that has
 * tests. Reviews are remembered briefly ({@link RememberedReviews}).
 *
 * <p>What it serves, tenants may have written: every answer carries {@link SiteHeaders}, a report
 * or artifact is served only if its test owns it (UID), and artifacts are unpacked within caps.
 */
public final class ReportSite implements HttpHandler {
  static final String PREFIX = "/reports/";

  /** Artifacts unpacked at once; more wait their turn, up to {@link #ARTIFACT_WAIT_SECONDS}. */
  static final int ARTIFACTS_AT_ONCE = 2;

  /**
   * How long a request for an artifact waits for its turn before a 503: a report page frames a
   * flame graph per node and event, all asked for at once (each request has a virtual thread).
   */
  static final int ARTIFACT_WAIT_SECONDS = 10;

  private final Semaphore unpacking = new Semaphore(ARTIFACTS_AT_ONCE);

  private final KubernetesClient client;
  private final Set<String> namespaces;
  private final Reviews reviews;
  private final Login login;

  /** {@code namespaces}: the watched ones; empty: all. */
  public ReportSite(KubernetesClient client, Set<String> namespaces) {
    this(client, namespaces, new RememberedReviews(new ApiserverReviews(client)));
  }

  ReportSite(KubernetesClient client, Set<String> namespaces, Reviews reviews) {
    this.client = client;
    this.namespaces = Set.copyOf(namespaces);
    this.reviews = reviews;
    this.login = new Login(reviews);
  }

  /** A request path, parsed: which page. Pure. */
  record Page(String namespace, String test, String artifact) {
    /** The page of {@code path}, or null if it names none. */
    static Page of(String path) {
      if (!path.startsWith(PREFIX)) {
        return null;
      }
      String[] parts = path.substring(PREFIX.length()).split("/", -1);
      for (int i = 0; i < parts.length; i++) {
        boolean last = i == parts.length - 1;
        if (parts[i].equals("..") || parts[i].equals(".") || parts[i].isEmpty() && !last) {
          return null;
        }
      }
      return switch (parts.length) {
        case 1 -> parts[0].isEmpty() ? new Page(null, null, null) : null;
        case 2 -> parts[1].isEmpty() ? new Page(parts[0], null, null) : null;
        case 3 -> new Page(parts[0], parts[1], parts[2].isEmpty() ? null : parts[2]);
        default -> null;
      };
    }
  }

  /** Whether the operator watches {@code namespace}. Pure. */
  boolean serves(String namespace) {
    return namespaces.isEmpty() || namespaces.contains(namespace);
  }

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      try {
        serve(exchange);
      } catch (Reviews.Unavailable e) {
        exchange.getResponseHeaders().set("Retry-After", "5");
        text(exchange, e.status(), "cannot check the token now: " + e.getMessage() + "\n");
      } catch (RuntimeException e) { // answered before the exchange closes
        text(exchange, 500, "error: " + e.getMessage() + "\n");
      }
    }
  }

  private void serve(HttpExchange exchange) throws IOException {
    String path = exchange.getRequestURI().getPath();
    if (Login.handles(path)) {
      login.handle(exchange);
      return;
    }
    if (!"GET".equals(exchange.getRequestMethod())) {
      text(exchange, 405, "read-only: GET\n");
      return;
    }
    String token = Credentials.token(exchange.getRequestHeaders());
    var who = token == null ? null : reviews.authenticate(token);
    if (who == null || !who.authenticated()) {
      Login.challenge(exchange, who, path);
      return;
    }
    var page = Page.of(path);
    if (page == null || page.namespace() != null && !serves(page.namespace())) {
      text(exchange, 404, "no such report\n");
      return;
    }
    var viewer = who.viewer();
    if (page.namespace() != null) {
      var access = reviews.authorize(viewer, page.namespace(), page.test());
      if (!access.allowed()) {
        text(exchange, 403, access.refusal(viewer, page.namespace(), page.test()));
        return;
      }
    }
    if (page.test() == null) {
      send(exchange, 200, "text/html; charset=utf-8", index(viewer, page.namespace()));
    } else if (page.artifact() == null) {
      testPage(exchange, page);
    } else {
      artifact(exchange, page);
    }
  }

  /**
   * The index of one namespace, or of every watched one: listed namespace by namespace, since an
   * operator that watches some namespaces may not list across all of them. The index of every
   * namespace holds those the viewer may read only.
   */
  private byte[] index(Reviews.Viewer viewer, String namespace) {
    var resources = client.resources(DhtLoadTest.class);
    List<DhtLoadTest> listed =
        namespace != null
            ? resources.inNamespace(namespace).list().getItems()
            : namespaces.isEmpty()
                ? resources.inAnyNamespace().list().getItems()
                : namespaces.stream()
                    .flatMap(ns -> resources.inNamespace(ns).list().getItems().stream())
                    .toList();
    var shown = namespace == null ? readable(viewer, listed) : listed;
    var tests =
        shown.stream()
            .sorted(
                Comparator.comparing((DhtLoadTest t) -> t.getMetadata().getNamespace())
                    .thenComparing(
                        t -> t.getMetadata().getCreationTimestamp(),
                        Comparator.nullsLast(Comparator.reverseOrder())))
            .toList();
    return ReportIndex.render(namespace, tests).getBytes(StandardCharsets.UTF_8);
  }

  /** Of {@code tests}, those in the namespaces where {@code viewer} may get dhtloadtests. */
  private List<DhtLoadTest> readable(Reviews.Viewer viewer, List<DhtLoadTest> tests) {
    if (reviews.authorize(viewer, null, null).allowed()) {
      return tests;
    }
    var allowed = new HashMap<String, Boolean>();
    return tests.stream()
        .filter(t ->
            allowed.computeIfAbsent(
                t.getMetadata().getNamespace(),
                ns -> reviews.authorize(viewer, ns, null).allowed()))
        .toList();
  }

  /**
   * The test of a page, if it exists: what its report and artifacts must be owned by. They are
   * found by name, never by label, and only when the test owns them (its UID).
   */
  private DhtLoadTest test(Page page) {
    return client
        .resources(DhtLoadTest.class)
        .inNamespace(page.namespace())
        .withName(page.test())
        .get();
  }

  private void testPage(HttpExchange exchange, Page page) throws IOException {
    var test = test(page);
    var report =
        test == null
            ? null
            : client
                .configMaps()
                .inNamespace(page.namespace())
                .withName(LoadTestModel.reportName(page.test()))
                .get();
    String html =
        report == null || report.getData() == null || !Owners.isOwnedBy(report, test)
            ? null
            : report.getData().get(ReportConfigMap.HTML_KEY);
    if (html == null) {
      text(exchange, 404, "no report (yet)\n");
      return;
    }
    send(exchange, 200, "text/html; charset=utf-8", html.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * An artifact's parts, by name, each owned by the test; unpacked within the caps of {@link
   * Artifacts#read}, and by at most {@link #ARTIFACTS_AT_ONCE} requests at a time: any reader of
   * the test may ask, and each request may hold up to 16 MiB of parts and {@link
   * Artifacts#MAX_ARTIFACT_BYTES} unpacked.
   */
  private void artifact(HttpExchange exchange, Page page) throws IOException {
    boolean turn;
    try {
      turn = unpacking.tryAcquire(ARTIFACT_WAIT_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      turn = false;
    }
    if (!turn) {
      exchange.getResponseHeaders().set("Retry-After", "5");
      text(exchange, 503, "busy serving other artifacts: try again\n");
      return;
    }
    try {
      var test = test(page);
      var parts = test == null ? null : parts(test, page.artifact());
      if (parts == null) {
        text(exchange, 404, "no such artifact\n");
        return;
      }
      byte[] content;
      try {
        content = Artifacts.read(parts);
      } catch (UncheckedIOException | IllegalArgumentException e) {
        String why =
            e instanceof UncheckedIOException u ? u.getCause().getMessage() : e.getMessage();
        text(exchange, 500, "artifact not served: " + why + "\n");
        return;
      }
      String type =
          parts.getFirst().getMetadata().getAnnotations().get(Artifacts.CONTENT_TYPE_ANNOTATION);
      SiteHeaders.artifact(
          exchange.getResponseHeaders(), type == null ? "application/octet-stream" : type);
      exchange.sendResponseHeaders(200, content.length);
      exchange.getResponseBody().write(content);
    } finally {
      unpacking.release();
    }
  }

  /** The parts of {@code artifact}, all there and all the test's; null otherwise. */
  private List<ConfigMap> parts(DhtLoadTest test, String artifact) {
    var maps = client.configMaps().inNamespace(test.getMetadata().getNamespace());
    var first = maps.withName(Artifacts.name(test, artifact, 0)).get();
    if (first == null || !Owners.isOwnedBy(first, test)) {
      return null;
    }
    int count;
    try {
      count = Artifacts.partCount(first);
    } catch (IllegalArgumentException e) {
      return null;
    }
    var parts = new ArrayList<ConfigMap>(List.of(first));
    for (int i = 1; i < count; i++) {
      var part = maps.withName(Artifacts.name(test, artifact, i)).get();
      if (part == null || !Owners.isOwnedBy(part, test)) {
        return null;
      }
      parts.add(part);
    }
    return parts;
  }

  static void text(HttpExchange exchange, int status, String text) throws IOException {
    send(exchange, status, "text/plain; charset=utf-8", text.getBytes(StandardCharsets.UTF_8));
  }

  /** One of the site's own answers, with the page policy ({@link SiteHeaders#page}). */
  private static void send(HttpExchange exchange, int status, String type, byte[] body)
      throws IOException {
    SiteHeaders.page(exchange.getResponseHeaders(), type);
    exchange.sendResponseHeaders(status, body.length);
    exchange.getResponseBody().write(body);
  }
}
