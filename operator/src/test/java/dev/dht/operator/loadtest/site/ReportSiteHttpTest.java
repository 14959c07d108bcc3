package dev.dht.operator.loadtest.site;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.dht.operator.TestCrds;
import dev.dht.operator.bounded.Allocations;
import dev.dht.operator.bounded.GzipBombs;
import dev.dht.operator.kube.Owners;
import dev.dht.operator.loadtest.DhtLoadTest;
import dev.dht.operator.loadtest.DhtLoadTestSpec;
import dev.dht.operator.loadtest.job.LoadTestModel;
import dev.dht.operator.loadtest.report.Artifacts;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The report site over HTTP, on objects in a real kube-apiserver (k8s-local {@code ensure.sh api}),
 * some of them written as a tenant could: every answer carries its Content-Security-Policy, a
 * report or artifact that its test does not own is not served, and a gzip bomb in an artifact stops
 * at the cap. No operator runs: the test writes what the operator would. Every request carries the
 * token of a ServiceAccount that may get the namespace's load tests ({@link ReportSiteAuthTest}
 * tries the others).
 */
class ReportSiteHttpTest {
  private static final int MIB = 1024 * 1024;

  static {
    TestCrds.forceApply(DhtLoadTest.class);
  }

  static KubernetesClient client;
  static String ns;
  static HttpServer site;
  static String base;
  static final HttpClient HTTP = HttpClient.newHttpClient();
  static DhtLoadTest test;
  static String token;

  @BeforeAll
  static void start() throws Exception {
    client = new KubernetesClientBuilder().build();
    ns = "report-site-" + Long.toHexString(System.nanoTime());
    client
        .resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
        .create();
    test = createTest("put-kappa");
    token = SiteReaders.token(client, ns, "reader");
    SiteReaders.mayGet(client, ns, "reader");
    site = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 8);
    site.createContext("/reports/", new ReportSite(client, Set.of(ns)));
    site.start();
    base = "http://127.0.0.1:" + site.getAddress().getPort() + "/reports/" + ns + "/";
  }

  @AfterAll
  static void stop() {
    site.stop(0);
    client.namespaces().withName(ns).delete();
    client.close();
  }

  private static DhtLoadTest createTest(String name) {
    var created = new DhtLoadTest();
    created.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(ns).build());
    var spec = new DhtLoadTestSpec();
    spec.setTargetUrl("http://10.0.0.9:8080");
    spec.setRate(1000);
    created.setSpec(spec);
    return client.resource(created).create();
  }

  private static ConfigMap report(String testName, String html) {
    return new ConfigMapBuilder()
        .withNewMetadata()
        .withName(LoadTestModel.reportName(testName))
        .withNamespace(ns)
        .endMetadata()
        .withData(Map.of("report.html", html))
        .build();
  }

  private static HttpResponse<String> get(String url) throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create(url)).header("Authorization", "Bearer " + token).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static void assertPagePolicy(HttpResponse<String> answer) {
    assertThat(answer.headers().firstValue("content-security-policy"))
        .hasValue(SiteHeaders.PAGE_POLICY);
    assertThat(answer.headers().firstValue("x-content-type-options")).hasValue("nosniff");
  }

  @Test
  void everyPageCarriesAPolicyThatRunsNoScriptAndSandboxesIt() throws Exception {
    var owned = report("put-kappa", "<h1>put-kappa</h1><script>alert(1)</script>");
    owned.getMetadata().setOwnerReferences(List.of(Owners.controller(test)));
    client.resource(owned).create();

    var page = get(base + "put-kappa/");
    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.body()).contains("<h1>put-kappa</h1>");
    assertPagePolicy(page);
    assertThat(SiteHeaders.PAGE_POLICY)
        .contains("default-src 'none'", "sandbox allow-scripts", "frame-ancestors 'none'")
        .as("the page's own scripts stay blocked")
        .doesNotContain("script-src");

    var index = get(base);
    assertThat(index.statusCode()).isEqualTo(200);
    assertThat(index.body()).contains("put-kappa");
    assertPagePolicy(index);
    var missing = get(base + "no-such-test/");
    assertThat(missing.statusCode()).isEqualTo(404);
    assertPagePolicy(missing);
  }

  /** A tenant's ConfigMap of a report's name, made before the test or beside it, is not served. */
  @Test
  void aReportTheTestDoesNotOwnIsNotServed() throws Exception {
    createTest("put-lambda");
    client.resource(report("put-lambda", "<h1>phishing</h1>")).create();
    var page = get(base + "put-lambda/");
    assertThat(page.statusCode()).isEqualTo(404);
    assertThat(page.body()).doesNotContain("phishing");
  }

  @Test
  void anArtifactRunsItsScriptsInAnOpaqueOrigin() throws Exception {
    byte[] flame = "<!DOCTYPE html><canvas></canvas><script>draw()</script>".getBytes(UTF8);
    for (var map :
        Artifacts.build(
                test, List.of(new Artifacts.Artifact("flame-kappa-0-cpu.html", "text/html", flame)))
            .configMaps()) {
      client.resource(map).create();
    }
    var answer = get(base + "put-kappa/flame-kappa-0-cpu.html");
    assertThat(answer.statusCode()).isEqualTo(200);
    assertThat(answer.body()).isEqualTo(new String(flame, UTF8));
    assertThat(answer.headers().firstValue("content-type")).hasValue("text/html");
    assertThat(answer.headers().firstValue("x-content-type-options")).hasValue("nosniff");
    assertThat(answer.headers().firstValue("content-security-policy"))
        .hasValue(SiteHeaders.ARTIFACT_POLICY);
    assertThat(SiteHeaders.ARTIFACT_POLICY)
        .contains("default-src 'none'", "sandbox allow-scripts")
        .doesNotContain("allow-same-origin");
  }

  /** Parts with the artifact's labels that the test does not own are no artifact. */
  @Test
  void anArtifactTheTestDoesNotOwnIsNotServed() throws Exception {
    for (var map :
        Artifacts.build(
                test,
                List.of(
                    new Artifacts.Artifact("fake.html", "text/html", "<h1>x</h1>".getBytes(UTF8))))
            .configMaps()) {
      map.getMetadata().setOwnerReferences(null);
      client.resource(map).create();
    }
    assertThat(get(base + "put-kappa/fake.html").statusCode()).isEqualTo(404);
  }

  /**
   * A gigabyte of zeros gzipped, in two parts the test owns (as anyone who may write ConfigMaps in
   * the namespace could write them): one GET of a reader makes the site unpack it; it stops at the
   * 16 MiB cap with a clear error, and the JVM allocated far less than the gigabyte.
   */
  @Test
  void aGzipBombInAnArtifactStopsAtTheCap() throws Exception {
    byte[] bomb = GzipBombs.zeros(1024);
    int half = bomb.length / 2;
    List<byte[]> slices =
        List.of(Arrays.copyOf(bomb, half), Arrays.copyOfRange(bomb, half, bomb.length));
    for (int part = 0; part < 2; part++) {
      client
          .resource(
              new ConfigMapBuilder()
                  .withNewMetadata()
                  .withName(Artifacts.name(test, "bomb.html", part))
                  .withNamespace(ns)
                  .withOwnerReferences(Owners.controller(test))
                  .withAnnotations(
                      Map.of(
                          "dht.dev/artifact-part",
                          part + "/2",
                          Artifacts.CONTENT_TYPE_ANNOTATION,
                          "text/html"))
                  .endMetadata()
                  .withBinaryData(
                      Map.of("part.gz", Base64.getEncoder().encodeToString(slices.get(part))))
                  .build())
          .create();
    }

    long before = Allocations.total();
    long started = System.nanoTime();
    var answer = get(base + "put-kappa/bomb.html");
    long allocated = Allocations.total() - before;

    assertThat(answer.statusCode()).isEqualTo(500);
    assertThat(answer.body())
        .isEqualTo(
            "artifact not served: the artifact (uncompressed) is larger than the 16 MiB the"
                + " operator reads of it\n");
    assertPagePolicy(answer);
    assertThat(allocated).as("allocated by the whole JVM").isLessThan(128L * MIB);
    assertThat(System.nanoTime() - started).isLessThan(10_000_000_000L);
  }

  private static final java.nio.charset.Charset UTF8 = StandardCharsets.UTF_8;
}
