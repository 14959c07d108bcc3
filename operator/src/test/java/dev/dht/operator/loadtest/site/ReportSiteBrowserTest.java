package dev.dht.operator.loadtest.site;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.Filter;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.dht.operator.TestCrds;
import dev.dht.operator.kube.Owners;
import dev.dht.operator.loadtest.DhtLoadTest;
import dev.dht.operator.loadtest.DhtLoadTestSpec;
import dev.dht.operator.loadtest.LoadTests;
import dev.dht.operator.loadtest.job.LoadTestModel;
import dev.dht.operator.loadtest.report.Artifacts;
import dev.dht.operator.loadtest.report.HtmlReport;
import dev.dht.operator.loadtest.report.ReportConfigMap;
import dev.dht.operator.loadtest.result.RunSummary;
import dev.dht.operator.loadtest.result.Verdict;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The report site in headless Chromium, as a person reads it: logged in through the form (the token
 * typed in, Enter), then a report page with a framed flame graph, then a page a tenant wrote with a
 * script in it. {@code e2e/lib/report_browser.py} drives Chromium (the e2e suite reads the real
 * operator's pages with it too); the site runs on a real apiserver (k8s-local {@code ensure.sh
 * api}) with a real ServiceAccount token. Needs {@code chromium} ({@code make test} installs it)
 * and {@code python3}.
 *
 * <p>It shows what no HTTP client can: that the login cookie reaches the page and the frames of a
 * page in its sandbox, that the page renders under its Content-Security-Policy without a violation,
 * that the framed flame graph runs its script under the artifact policy, and that the browser
 * refuses the tenant's script and says so.
 */
class ReportSiteBrowserTest {
  static {
    TestCrds.forceApply(DhtLoadTest.class);
  }

  static final String FLAME = "flame-demo-0-cpu.html";

  /** A flame graph as the frame shows it: its inline script paints its canvas magenta. */
  static final String FLAME_HTML =
      "<!DOCTYPE html><html><head><style>body{margin:0}</style></head><body>"
          + "<canvas id=\"c\" width=\"1200\" height=\"340\"></canvas><script>"
          + "var g=document.getElementById('c').getContext('2d');g.fillStyle='#ff00ff';"
          + "g.fillRect(0,0,1200,340);</script></body></html>";

  static KubernetesClient client;
  static String ns;
  static HttpServer site;
  static String pages;
  static String token;
  static final ConcurrentLinkedQueue<String> ANSWERED = new ConcurrentLinkedQueue<>();

  @BeforeAll
  static void start() throws Exception {
    client = new KubernetesClientBuilder().build();
    ns = "report-browser-" + Long.toHexString(System.nanoTime());
    client
        .resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
        .create();
    var profiled = createTest("put-mu");
    var summary = RunSummary.parse(LoadTests.terminationMessage());
    client
        .resource(
            ReportConfigMap.build(
                profiled,
                "http://demo." + ns + ".svc:8080",
                summary,
                Verdict.judge(summary.results(), null),
                Optional.empty(),
                null,
                new HtmlReport.Profiles(List.of(FLAME), List.of("demo-0: +4.1% CPU per request"))))
        .create();
    for (var part :
        Artifacts.build(
                profiled,
                List.of(
                    new Artifacts.Artifact(
                        FLAME, "text/html", FLAME_HTML.getBytes(StandardCharsets.UTF_8))))
            .configMaps()) {
      client.resource(part).create();
    }
    var hostile = createTest("put-nu");
    client
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName(LoadTestModel.reportName("put-nu"))
                .withNamespace(ns)
                .withOwnerReferences(Owners.controller(hostile))
                .endMetadata()
                .withData(
                    Map.of(
                        "report.html",
                        "<h1 id=\"x\">hostile</h1><script>"
                            + "document.getElementById('x').textContent='script ran'</script>"))
                .build())
        .create();
    token = SiteReaders.token(client, ns, "reader");
    SiteReaders.mayGet(client, ns, "reader");

    site = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 8);
    site.createContext("/reports/", new ReportSite(client, Set.of(ns)))
        .getFilters()
        .add(
            new Filter() {
              @Override
              public void doFilter(HttpExchange exchange, Chain chain) throws IOException {
                chain.doFilter(exchange);
                ANSWERED.add(
                    exchange.getRequestMethod()
                        + " "
                        + exchange.getRequestURI().getPath()
                        + " "
                        + exchange.getResponseCode());
              }

              @Override
              public String description() {
                return "what the site answered";
              }
            });
    site.start();
    pages = "http://127.0.0.1:" + site.getAddress().getPort() + "/reports/" + ns + "/";
  }

  @AfterAll
  static void stop() {
    site.stop(0);
    client.namespaces().withName(ns).delete();
    client.close();
  }

  private static DhtLoadTest createTest(String name) {
    var test = new DhtLoadTest();
    test.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(ns).build());
    var spec = new DhtLoadTestSpec();
    spec.setTargetUrl("http://10.0.0.9:8080");
    spec.setRate(1000);
    test.setSpec(spec);
    return client.resource(test).create();
  }

  /** report_browser.py on {@code urls}: one JSON line per page. */
  private static List<JsonNode> browse(Path out, String... urls) throws Exception {
    var script = Path.of("../e2e/lib/report_browser.py").toAbsolutePath().normalize();
    var tokenFile = out.resolve("token");
    Files.writeString(tokenFile, token);
    var command = new ArrayList<>(List.of("python3", script.toString(), "--token-file"));
    command.addAll(List.of(tokenFile.toString(), "--out", out.toString()));
    command.addAll(List.of(urls));
    Process browser;
    try {
      browser = new ProcessBuilder(command).redirectErrorStream(false).start();
    } catch (IOException e) {
      throw new AssertionError("python3 is needed to drive Chromium", e);
    }
    var stdout = browser.getInputStream().readAllBytes();
    var stderr = new String(browser.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(browser.waitFor(180, TimeUnit.SECONDS)).isTrue();
    assertThat(browser.exitValue())
        .as(
            "report_browser.py (chromium: make test installs it; apt-get install chromium): %s",
            stderr)
        .isZero();
    var json = new ObjectMapper();
    var lines = new ArrayList<JsonNode>();
    for (String line : new String(stdout, StandardCharsets.UTF_8).split("\n")) {
      if (!line.isBlank()) {
        lines.add(json.readTree(line));
      }
    }
    return lines;
  }

  private static List<String> violations(JsonNode page) {
    var found = new ArrayList<String>();
    for (var entry : page.get("console")) {
      String text = entry.get("text").asText();
      if (text.contains("Content Security Policy")) {
        found.add(text);
      }
    }
    return found;
  }

  /** Pixels of the flame graph's magenta: only its script paints them. */
  private static int magenta(Path png) throws IOException {
    var image = ImageIO.read(png.toFile());
    int count = 0;
    for (int y = 0; y < image.getHeight(); y++) {
      for (int x = 0; x < image.getWidth(); x++) {
        int rgb = image.getRGB(x, y);
        int r = rgb >> 16 & 0xff;
        int g = rgb >> 8 & 0xff;
        int b = rgb & 0xff;
        if (r > 230 && g < 40 && b > 230) {
          count++;
        }
      }
    }
    return count;
  }

  @Test
  void aLoggedInReaderSeesTheReportWithItsFlameGraphAndNoTenantScriptRuns(@TempDir Path out)
      throws Exception {
    String report = pages + "put-mu/";
    String tenants = pages + "put-nu/";
    var visits = browse(out, report, tenants);
    assertThat(visits).hasSize(2);

    var page = visits.get(0);
    assertThat(page.get("finalUrl").asText()).as("the login went on to the page").isEqualTo(report);
    assertThat(page.get("status").asInt()).isEqualTo(200);
    assertThat(page.get("csp").asText()).isEqualTo(SiteHeaders.PAGE_POLICY);
    assertThat(page.get("title").asText()).isEqualTo("dht load test put-mu");
    assertThat(violations(page)).as("the report page breaks none of its policy").isEmpty();
    String dom = Files.readString(out.resolve("page-0.html"));
    assertThat(dom)
        .contains("<polyline")
        .contains("<iframe sandbox=\"allow-scripts\" src=\"" + FLAME + "\"");
    assertThat(ANSWERED)
        .as("the form post set the cookie, which the page and its frame carried")
        .contains(
            "POST /reports/login 303",
            "GET /reports/" + ns + "/put-mu/ 200",
            "GET /reports/" + ns + "/put-mu/" + FLAME + " 200");
    assertThat(magenta(out.resolve("page-0.png")))
        .as("the framed flame graph drew (its script ran under the artifact policy)")
        .isGreaterThan(100_000);

    var hostile = visits.get(1);
    assertThat(hostile.get("status").asInt()).isEqualTo(200);
    assertThat(hostile.get("csp").asText()).isEqualTo(SiteHeaders.PAGE_POLICY);
    assertThat(violations(hostile))
        .as("Chromium refused the tenant's inline script, by the policy")
        .singleElement()
        .asString()
        .contains("script");
    assertThat(Files.readString(out.resolve("page-1.html")))
        .as("the script would have written 'script ran' into the heading")
        .contains("<h1 id=\"x\">hostile</h1>");
  }
}
