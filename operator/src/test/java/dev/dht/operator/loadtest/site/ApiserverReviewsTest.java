package dev.dht.operator.loadtest.site;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.dht.operator.loadtest.site.Reviews.Viewer;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What the operator sends in its reviews and how it takes the answers, against a stand-in apiserver
 * on a real port: one that answers as told, one that refuses, one that never answers. (The real
 * apiserver's answers: {@link ReportSiteAuthTest}.)
 */
class ApiserverReviewsTest {
  static final ObjectMapper JSON = new ObjectMapper();

  HttpServer apiserver;
  KubernetesClient client;
  final Map<String, JsonNode> asked = new ConcurrentHashMap<>();
  volatile int status = 201;
  volatile String answer = "{}";
  final CountDownLatch never = new CountDownLatch(1);
  volatile boolean silent;

  @BeforeEach
  void start() throws IOException {
    apiserver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 8);
    apiserver.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
    apiserver.createContext("/", this::answer);
    apiserver.start();
    client =
        new KubernetesClientBuilder()
            .withConfig(
                new ConfigBuilder()
                    .withMasterUrl("http://127.0.0.1:" + apiserver.getAddress().getPort())
                    .withRequestRetryBackoffLimit(3)
                    .build())
            .build();
  }

  @AfterEach
  void stop() {
    never.countDown();
    client.close();
    apiserver.stop(0);
  }

  private void answer(HttpExchange exchange) throws IOException {
    try (exchange) {
      asked.put(
          exchange.getRequestURI().getPath(),
          JSON.readTree(exchange.getRequestBody().readAllBytes()));
      if (silent) {
        never.await();
        return;
      }
      byte[] body = answer.getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", "application/json");
      exchange.sendResponseHeaders(status, body.length);
      exchange.getResponseBody().write(body);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Test
  void aTokenReviewWithTheApiserversAudiencesNamesTheUser() {
    answer =
        """
        {"apiVersion":"authentication.k8s.io/v1","kind":"TokenReview","status":{
         "authenticated":true,"user":{"username":"system:serviceaccount:a:reader","uid":"u-1",
         "groups":["system:serviceaccounts","system:authenticated"],
         "extra":{"authentication.kubernetes.io/credential-id":["JTI=1"]}}}}\
        """;
    var who = new ApiserverReviews(client).authenticate("the-token");
    assertThat(who.viewer())
        .isEqualTo(
            new Viewer(
                "system:serviceaccount:a:reader",
                "u-1",
                List.of("system:serviceaccounts", "system:authenticated"),
                Map.of("authentication.kubernetes.io/credential-id", List.of("JTI=1"))));
    var spec = asked.get("/apis/authentication.k8s.io/v1/tokenreviews").get("spec");
    assertThat(spec.get("token").asText()).isEqualTo("the-token");
    assertThat(spec.has("audiences")).as("no audiences: the apiserver's own").isFalse();
  }

  @Test
  void aTokenTheApiserverDoesNotTakeIsRefusedWithItsError() {
    answer = "{\"status\":{\"authenticated\":false,\"error\":\"token has expired\"}}";
    var who = new ApiserverReviews(client).authenticate("old");
    assertThat(who.authenticated()).isFalse();
    assertThat(who.error()).isEqualTo("token has expired");
  }

  @Test
  void theAccessReviewAsksForGetDhtloadtestsOfTheUserAsReviewed() throws Exception {
    answer = "{\"status\":{\"allowed\":false,\"reason\":\"no RBAC policy matched\"}}";
    var viewer = new Viewer("alice", "u-1", List.of("team-a"), Map.of("scopes", List.of("x")));
    var access = new ApiserverReviews(client).authorize(viewer, "team-a", "put-10k");
    assertThat(access).isEqualTo(new Reviews.Authorization(false, "no RBAC policy matched"));
    var spec = asked.get("/apis/authorization.k8s.io/v1/subjectaccessreviews").get("spec");
    assertThat(JSON.writeValueAsString(spec))
        .isEqualTo(
            "{\"extra\":{\"scopes\":[\"x\"]},\"groups\":[\"team-a\"],\"resourceAttributes\":"
                + "{\"group\":\"dht.dev\",\"name\":\"put-10k\",\"namespace\":\"team-a\","
                + "\"resource\":\"dhtloadtests\",\"verb\":\"get\"},\"uid\":\"u-1\",\"user\":\"alice\"}");
    answer = "{\"status\":{\"allowed\":true}}";
    assertThat(new ApiserverReviews(client).authorize(viewer, null, null).allowed()).isTrue();
    assertThat(
            asked
                .get("/apis/authorization.k8s.io/v1/subjectaccessreviews")
                .get("spec")
                .get("resourceAttributes")
                .has("namespace"))
        .as("every namespace")
        .isFalse();
  }

  @Test
  void aRefusedReviewIs502() {
    status = 403;
    answer = "{\"kind\":\"Status\",\"status\":\"Failure\",\"message\":\"forbidden\",\"code\":403}";
    assertThatThrownBy(() -> new ApiserverReviews(client).authenticate("t"))
        .isInstanceOfSatisfying(
            Reviews.Unavailable.class,
            e -> {
              assertThat(e.status()).isEqualTo(502);
              assertThat(e.getMessage()).startsWith("the apiserver refused the TokenReview");
            });
  }

  /** The client's own retries and its 10 s default do not apply: one try, five seconds. */
  @Test
  @Timeout(30)
  void anApiserverThatDoesNotAnswerIs504() {
    silent = true;
    assertThatThrownBy(() -> new ApiserverReviews(client).authenticate("t"))
        .isInstanceOfSatisfying(
            Reviews.Unavailable.class,
            e -> {
              assertThat(e.status()).isEqualTo(504);
              assertThat(e.getMessage())
                  .isEqualTo("the apiserver did not answer the TokenReview within 5000 ms");
            });
  }
}
