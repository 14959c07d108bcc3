package dev.dht.operator.loadtest.site;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.dht.operator.loadtest.DhtLoadTest;
import dev.dht.operator.loadtest.job.LoadTestModel;
import dev.dht.operator.loadtest.report.Artifacts;
import dev.dht.operator.loadtest.report.ReportConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * The load test reports, read-only, on the operator's HTTP port ({@code kubectl port-forward}):
 * {@code /reports/} an index of the load tests with their verdicts, {@code /reports/<ns>/} those of
 * a namespace, {@code /reports/<ns>/<name>/} the test's report page, {@code
 * /reports/<ns>/<name>/<artifact>} an artifact (a flame graph). Only namespaces the operator
 * watches are served; anything else is 404. Reads the objects on each request (no cache: a report
 * page is rare).
 */
public final class ReportSite implements HttpHandler {
  static final String PREFIX = "/reports/";

  private final KubernetesClient client;
  private final Set<String> namespaces;

  /** {@code namespaces}: the watched ones; empty: all. */
  public ReportSite(KubernetesClient client, Set<String> namespaces) {
    this.client = client;
    this.namespaces = Set.copyOf(namespaces);
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
      } catch (RuntimeException e) { // answered before the exchange closes
        send(
            exchange,
            500,
            "text/plain",
            ("error: " + e.getMessage() + "\n").getBytes(StandardCharsets.UTF_8));
      }
    }
  }

  private void serve(HttpExchange exchange) throws IOException {
    if (!"GET".equals(exchange.getRequestMethod())) {
      send(exchange, 405, "text/plain", "read-only: GET\n".getBytes(StandardCharsets.UTF_8));
      return;
    }
    var page = Page.of(exchange.getRequestURI().getPath());
    if (page == null || page.namespace() != null && !serves(page.namespace())) {
      send(exchange, 404, "text/plain", "no such report\n".getBytes(StandardCharsets.UTF_8));
      return;
    }
    if (page.test() == null) {
      send(exchange, 200, "text/html; charset=utf-8", index(page.namespace()));
    } else if (page.artifact() == null) {
      testPage(exchange, page);
    } else {
      artifact(exchange, page);
    }
  }

  /**
   * The index of one namespace, or of every watched one: listed namespace by namespace, since an
   * operator that watches some namespaces may not list across all of them.
   */
  private byte[] index(String namespace) {
    var resources = client.resources(DhtLoadTest.class);
    List<DhtLoadTest> listed =
        namespace != null
            ? resources.inNamespace(namespace).list().getItems()
            : namespaces.isEmpty()
                ? resources.inAnyNamespace().list().getItems()
                : namespaces.stream()
                    .flatMap(ns -> resources.inNamespace(ns).list().getItems().stream())
                    .toList();
    var tests =
        listed.stream()
            .sorted(
                Comparator.comparing((DhtLoadTest t) -> t.getMetadata().getNamespace())
                    .thenComparing(
                        t -> t.getMetadata().getCreationTimestamp(),
                        Comparator.nullsLast(Comparator.reverseOrder())))
            .toList();
    return ReportIndex.render(namespace, tests).getBytes(StandardCharsets.UTF_8);
  }

  private void testPage(HttpExchange exchange, Page page) throws IOException {
    var report =
        client
            .configMaps()
            .inNamespace(page.namespace())
            .withName(LoadTestModel.reportName(page.test()))
            .get();
    if (report == null || report.getData() == null) {
      send(exchange, 404, "text/plain", "no report (yet)\n".getBytes(StandardCharsets.UTF_8));
      return;
    }
    send(
        exchange,
        200,
        "text/html; charset=utf-8",
        report.getData().get(ReportConfigMap.HTML_KEY).getBytes(StandardCharsets.UTF_8));
  }

  private void artifact(HttpExchange exchange, Page page) throws IOException {
    List<ConfigMap> parts =
        client
            .configMaps()
            .inNamespace(page.namespace())
            .withLabel("app.kubernetes.io/instance", page.test())
            .withLabel(Artifacts.ARTIFACT_LABEL, Artifacts.slug(page.artifact()))
            .list()
            .getItems();
    if (parts.isEmpty()) {
      send(exchange, 404, "text/plain", "no such artifact\n".getBytes(StandardCharsets.UTF_8));
      return;
    }
    String type =
        parts.getFirst().getMetadata().getAnnotations().get(Artifacts.CONTENT_TYPE_ANNOTATION);
    send(exchange, 200, type == null ? "application/octet-stream" : type, Artifacts.read(parts));
  }

  private static void send(HttpExchange exchange, int status, String type, byte[] body)
      throws IOException {
    exchange.getResponseHeaders().set("Content-Type", type);
    exchange.getResponseHeaders().set("X-Content-Type-Options", "nosniff");
    exchange.sendResponseHeaders(status, body.length);
    exchange.getResponseBody().write(body);
  }
}
