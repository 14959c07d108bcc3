package dev.dht.operator.loadtest.site;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.dht.operator.TestCrds;
import dev.dht.operator.kube.Owners;
import dev.dht.operator.loadtest.DhtLoadTest;
import dev.dht.operator.loadtest.DhtLoadTestSpec;
import dev.dht.operator.loadtest.job.LoadTestModel;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Who may read the report site, asked of a real kube-apiserver (k8s-local {@code ensure.sh api})
 * with real ServiceAccount tokens, over HTTP: without a token 401, with one that may not get the
 * namespace's dhtloadtests 403, with one that may 200; the same through the login form's cookie.
 * Namespace {@code a}: the reader's, two tests; namespace {@code b}: one test, which only a reader
 * of every namespace sees.
 */
class ReportSiteAuthTest {
  static {
    TestCrds.forceApply(DhtLoadTest.class);
  }

  static final HttpClient HTTP = HttpClient.newHttpClient();
  static KubernetesClient client;
  static String a;
  static String b;
  static String everywhere;
  static HttpServer site;
  static String root;
  static String reader;
  static String oneTest;
  static String nobody;
  static String everyNamespace;

  @BeforeAll
  static void start() throws Exception {
    client = new KubernetesClientBuilder().build();
    String suffix = Long.toHexString(System.nanoTime());
    a = "report-auth-a-" + suffix;
    b = "report-auth-b-" + suffix;
    for (String ns : new String[] {a, b}) {
      client
          .resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
          .create();
    }
    testWithReport(a, "put-alpha");
    testWithReport(a, "put-beta");
    testWithReport(b, "put-gamma");
    reader = SiteReaders.token(client, a, "reader");
    SiteReaders.mayGet(client, a, "reader");
    oneTest = SiteReaders.token(client, a, "one-test");
    SiteReaders.mayGet(client, a, "one-test", "put-alpha");
    nobody = SiteReaders.token(client, a, "nobody");
    everyNamespace = SiteReaders.token(client, b, "everywhere");
    everywhere = "report-auth-everywhere-" + suffix;
    readEveryNamespace(everywhere, b, "everywhere");

    site = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 8);
    site.createContext("/reports/", new ReportSite(client, Set.of(a, b)));
    site.start();
    root = "http://127.0.0.1:" + site.getAddress().getPort();
  }

  @AfterAll
  static void stop() {
    site.stop(0);
    client.rbac().clusterRoleBindings().withName(everywhere).delete();
    client.rbac().clusterRoles().withName(everywhere).delete();
    client.namespaces().withName(a).delete();
    client.namespaces().withName(b).delete();
    client.close();
  }

  private static void testWithReport(String ns, String name) {
    var test = new DhtLoadTest();
    test.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(ns).build());
    var spec = new DhtLoadTestSpec();
    spec.setTargetUrl("http://10.0.0.9:8080");
    spec.setRate(1000);
    test.setSpec(spec);
    var created = client.resource(test).create();
    client
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName(LoadTestModel.reportName(name))
                .withNamespace(ns)
                .withOwnerReferences(Owners.controller(created))
                .endMetadata()
                .withData(Map.of("report.html", "<h1>report of " + name + "</h1>"))
                .build())
        .create();
  }

  /** A ClusterRole to get dhtloadtests, bound cluster-wide to the ServiceAccount. */
  private static void readEveryNamespace(String role, String ns, String account) {
    client
        .resource(
            new ClusterRoleBuilder()
                .withNewMetadata()
                .withName(role)
                .endMetadata()
                .addNewRule()
                .withApiGroups("dht.dev")
                .withResources("dhtloadtests")
                .withVerbs("get")
                .endRule()
                .build())
        .create();
    client
        .resource(
            new ClusterRoleBindingBuilder()
                .withNewMetadata()
                .withName(role)
                .endMetadata()
                .withNewRoleRef("rbac.authorization.k8s.io", "ClusterRole", role)
                .addNewSubject()
                .withKind("ServiceAccount")
                .withName(account)
                .withNamespace(ns)
                .endSubject()
                .build())
        .create();
    SiteReaders.awaitAllowed(client, ns, account, a, null);
  }

  private static HttpResponse<String> get(String path, String... headers) throws Exception {
    var request = HttpRequest.newBuilder(URI.create(root + path));
    if (headers.length > 0) {
      request.headers(headers);
    }
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static HttpResponse<String> as(String token, String path) throws Exception {
    return get(path, "Authorization", "Bearer " + token);
  }

  private static HttpResponse<String> post(String path, String form, String... headers)
      throws Exception {
    var request =
        HttpRequest.newBuilder(URI.create(root + path))
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString(form));
    if (headers.length > 0) {
      request.headers(headers);
    }
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static String login(String token, String next) {
    return "token="
        + URLEncoder.encode(token, StandardCharsets.UTF_8)
        + "&next="
        + URLEncoder.encode(next, StandardCharsets.UTF_8);
  }

  @Test
  void withoutATokenEveryPathIs401WithTheBearerChallengeAndTheLoginForm() throws Exception {
    for (String path :
        new String[] {
          "/reports/",
          "/reports/" + a + "/",
          "/reports/" + a + "/put-alpha/",
          "/reports/" + a + "/put-alpha/flame.html",
          "/reports/no/such/page/at-all",
          "/reports/kube-system/"
        }) {
      var answer = get(path);
      assertThat(answer.statusCode()).as(path).isEqualTo(401);
      assertThat(answer.headers().firstValue("www-authenticate"))
          .hasValue("Bearer realm=\"dht-reports\"");
      assertThat(answer.headers().firstValue("content-security-policy"))
          .hasValue(SiteHeaders.LOGIN_POLICY);
      assertThat(answer.body()).contains("<form method=\"post\" action=\"/reports/login\">");
    }
    assertThat(get("/reports/" + a + "/put-alpha/").body())
        .as("the form goes back to the page asked for")
        .contains("name=\"next\" value=\"/reports/" + a + "/put-alpha/\"");
    assertThat(get("/reports/" + a + "/", "Authorization", "Basic " + reader).statusCode())
        .as("only a bearer token")
        .isEqualTo(401);
  }

  @Test
  void aTokenTheApiserverDoesNotTakeIs401() throws Exception {
    var answer = as("eyJhbGciOiJSUzI1NiJ9.e30.c2lnbmF0dXJl", "/reports/" + a + "/");
    assertThat(answer.statusCode()).isEqualTo(401);
    assertThat(answer.headers().firstValue("www-authenticate"))
        .hasValue("Bearer realm=\"dht-reports\", error=\"invalid_token\"");
    assertThat(answer.body()).contains("The apiserver did not accept the token");
  }

  @Test
  void aReaderWhoMayNotGetTheNamespacesLoadTestsIs403() throws Exception {
    for (String path :
        new String[] {
          "/reports/" + a + "/",
          "/reports/" + a + "/put-alpha/",
          "/reports/" + a + "/put-alpha/flame.html"
        }) {
      var answer = as(nobody, path);
      assertThat(answer.statusCode()).as(path).isEqualTo(403);
      assertThat(answer.body())
          .startsWith("system:serviceaccount:" + a + ":nobody may not get dhtloadtests.dht.dev")
          .contains("in namespace " + a)
          .doesNotContain("report of");
      assertThat(answer.headers().firstValue("content-security-policy"))
          .hasValue(SiteHeaders.PAGE_POLICY);
    }
    assertThat(as(reader, "/reports/" + b + "/put-gamma/").statusCode())
        .as("the reader of a, in b")
        .isEqualTo(403);
  }

  @Test
  void aReaderWhoMayIs200() throws Exception {
    var page = as(reader, "/reports/" + a + "/put-alpha/");
    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.body()).isEqualTo("<h1>report of put-alpha</h1>");
    assertThat(page.headers().firstValue("content-security-policy"))
        .hasValue(SiteHeaders.PAGE_POLICY);
    var index = as(reader, "/reports/" + a + "/");
    assertThat(index.statusCode()).isEqualTo(200);
    assertThat(index.body()).contains("put-alpha", "put-beta");
    assertThat(as(reader, "/reports/kube-system/").statusCode())
        .as("a namespace the site does not serve")
        .isEqualTo(404);
  }

  /** The review names the page's test: a Role with resourceNames opens that test only. */
  @Test
  void aRoleForOneTestOpensThatTestOnly() throws Exception {
    assertThat(as(oneTest, "/reports/" + a + "/put-alpha/").statusCode()).isEqualTo(200);
    assertThat(as(oneTest, "/reports/" + a + "/put-beta/").statusCode()).isEqualTo(403);
    assertThat(as(oneTest, "/reports/" + a + "/").statusCode())
        .as("the namespace's index needs every test")
        .isEqualTo(403);
  }

  @Test
  void theIndexOfEveryNamespaceListsWhatTheReaderMayRead() throws Exception {
    var own = as(reader, "/reports/");
    assertThat(own.statusCode()).isEqualTo(200);
    assertThat(own.body()).contains("put-alpha", "put-beta").doesNotContain("put-gamma", b);
    var none = as(nobody, "/reports/");
    assertThat(none.statusCode()).isEqualTo(200);
    assertThat(none.body()).contains("<table id=\"tests\">").doesNotContain("put-", a);
    var all = as(everyNamespace, "/reports/");
    assertThat(all.statusCode()).isEqualTo(200);
    assertThat(all.body()).contains("put-alpha", "put-beta", "put-gamma");
  }

  @Test
  void theLoginFormKeepsTheTokenInAStrictHttpOnlyCookie() throws Exception {
    var form = get("/reports/login?next=/reports/" + a + "/put-alpha/");
    assertThat(form.statusCode()).isEqualTo(200);
    assertThat(form.headers().firstValue("content-security-policy"))
        .hasValue(SiteHeaders.LOGIN_POLICY);
    assertThat(form.body()).contains("type=\"password\"").doesNotContain("<script");

    var origin = new String[] {"Origin", root};
    var login = post("/reports/login", login(reader, "/reports/" + a + "/put-alpha/"), origin);
    assertThat(login.statusCode()).isEqualTo(303);
    assertThat(login.headers().firstValue("location")).hasValue("/reports/" + a + "/put-alpha/");
    assertThat(login.headers().firstValue("set-cookie"))
        .hasValue("dht-reports-token=" + reader + "; Path=/reports; HttpOnly; SameSite=Strict");
    var page = get("/reports/" + a + "/put-alpha/", "Cookie", "dht-reports-token=" + reader);
    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.body()).isEqualTo("<h1>report of put-alpha</h1>");

    assertThat(
            get("/reports/" + a + "/", "Cookie", "x=1; dht-reports-token=" + nobody).statusCode())
        .as("the cookie of a reader who may not")
        .isEqualTo(403);
    var behindTls =
        post("/reports/login", login(reader, "/reports/"), "X-Forwarded-Proto", "https");
    assertThat(behindTls.headers().firstValue("set-cookie").orElseThrow()).endsWith("; Secure");
    assertThat(
            post("/reports/login", login(reader, "https://evil.example/"), origin)
                .headers()
                .firstValue("location"))
        .as("no open redirect")
        .hasValue("/reports/");
    var logout = post("/reports/logout", "", origin);
    assertThat(logout.statusCode()).isEqualTo(303);
    assertThat(logout.headers().firstValue("set-cookie").orElseThrow())
        .startsWith("dht-reports-token=;")
        .endsWith("; Max-Age=0");
  }

  @Test
  void aLoginIsRefusedFromAnotherSiteOrWithABadToken() throws Exception {
    for (var from :
        new String[][] {{"Origin", "http://evil.example"}, {"Sec-Fetch-Site", "cross-site"}}) {
      var answer = post("/reports/login", login(reader, "/reports/"), from);
      assertThat(answer.statusCode()).as(from[1]).isEqualTo(403);
      assertThat(answer.headers().firstValue("set-cookie")).isEmpty();
    }
    var invalid = post("/reports/login", login("made-up", "/reports/"), "Origin", root);
    assertThat(invalid.statusCode()).isEqualTo(401);
    assertThat(invalid.headers().firstValue("set-cookie")).isEmpty();
    assertThat(invalid.body()).contains("The apiserver did not accept the token");
    var noToken = post("/reports/login", "token=a%3Bb&next=/reports/", "Origin", root);
    assertThat(noToken.statusCode()).isEqualTo(400);
    assertThat(noToken.headers().firstValue("set-cookie")).isEmpty();
  }
}
