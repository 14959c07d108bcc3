package dev.dht.operator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.operator.backup.controller.DhtBackupReconciler;
import dev.dht.operator.cluster.DhtClusterReconciler;
import dev.dht.operator.cluster.NetworkPolicyDependentFactory;
import dev.dht.operator.loadtest.controller.DhtLoadTestReconciler;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Wiring of the operator process, without starting it (no apiserver needed). */
class OperatorMainTest {
  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

  @Test
  void registersBothControllersOnTheConfiguredNamespaces() {
    var settings =
        OperatorSettings.fromEnv(Map.of("WATCH_NAMESPACES", "a,b", "LEADER_ELECTION", "false"));
    var operator = OperatorMain.create(settings, registry);
    for (String name :
        new String[] {
          DhtClusterReconciler.NAME, DhtLoadTestReconciler.NAME, DhtBackupReconciler.NAME
        }) {
      var controller = operator.getRegisteredController(name).orElseThrow();
      assertThat(controller.getConfiguration().getInformerConfig().getNamespaces())
          .as(name)
          .containsExactlyInAnyOrder("a", "b");
    }
    assertThat(operator.getConfigurationService().getLeaderElectionConfiguration()).isEmpty();
    assertThat(operator.getConfigurationService().dependentResourceFactory())
        .as("hands the operator's settings to the NetworkPolicy dependent")
        .isInstanceOf(NetworkPolicyDependentFactory.class);
  }

  @Test
  void leaderElectionUsesALease() {
    var operator = OperatorMain.create(OperatorSettings.fromEnv(Map.of()), registry);
    var election = operator.getConfigurationService().getLeaderElectionConfiguration();
    assertThat(election)
        .hasValueSatisfying(e -> assertThat(e.getLeaseName()).isEqualTo("dht-operator"));
    var controller = operator.getRegisteredController(DhtClusterReconciler.NAME).orElseThrow();
    assertThat(controller.getConfiguration().getInformerConfig().watchAllNamespaces()).isTrue();
  }

  @Test
  void healthServerAnswersProbesAndMetrics() throws Exception {
    var settings = OperatorSettings.fromEnv(Map.of("LEADER_ELECTION", "false"));
    var operator = OperatorMain.create(settings, registry);
    registry.counter("dht_test_total").increment();
    try (var server =
            HealthServer.start(
                new InetSocketAddress("127.0.0.1", 0), operator.getRuntimeInfo(), registry);
        var http = HttpClient.newHttpClient()) {
      assertThat(get(http, server.port(), "/healthz").statusCode()).isEqualTo(200);
      // not started yet, so not ready
      assertThat(get(http, server.port(), "/readyz").statusCode()).isEqualTo(503);
      var metrics = get(http, server.port(), "/metrics");
      assertThat(metrics.statusCode()).isEqualTo(200);
      assertThat(metrics.body()).contains("dht_test_total");
    }
  }

  private static HttpResponse<String> get(HttpClient http, int port, String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
