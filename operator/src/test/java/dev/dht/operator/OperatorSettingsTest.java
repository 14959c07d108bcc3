package dev.dht.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dht.operator.networking.AdminCallers;
import dev.dht.operator.policy.ChartPolicy;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OperatorSettingsTest {

  @Test
  void defaultsWatchEverythingWithTheLocalNodeImage() {
    var settings = OperatorSettings.fromEnv(Map.of());
    assertThat(settings.nodeImage()).isEqualTo("local/dht-node:0.1.0");
    assertThat(settings.watchNamespaces()).isEmpty();
    assertThat(settings.healthPort()).isEqualTo(8081);
    assertThat(settings.leaderElection()).isTrue();
    assertThat(settings.leaseName()).isEqualTo("dht-operator");
    assertThat(settings.leaseNamespace()).isNull();
    assertThat(settings.nodeImagePull().policy()).isEqualTo("IfNotPresent");
    assertThat(settings.nodeImagePull().secrets()).isEmpty();
    assertThat(settings.adminCallers()).isEqualTo(AdminCallers.NONE);
  }

  @Test
  void theNetworkPoliciesAdmitTheOperatorsPodsAndTheMonitoringNamespace() {
    var settings =
        OperatorSettings.fromEnv(
            Map.of(
                "POD_NAMESPACE", "dht-system",
                "DHT_OPERATOR_POD_SELECTOR",
                    "app.kubernetes.io/name=dht-operator, app.kubernetes.io/instance=dht",
                "DHT_MONITORING_NAMESPACE", "monitoring"));
    assertThat(settings.adminCallers())
        .isEqualTo(
            new AdminCallers(
                "dht-system",
                Map.of(
                    "app.kubernetes.io/name", "dht-operator", "app.kubernetes.io/instance", "dht"),
                "monitoring"));
    assertThat(OperatorSettings.fromEnv(Map.of("DHT_MONITORING_NAMESPACE", " ")).adminCallers())
        .as("blank: none")
        .isEqualTo(AdminCallers.NONE);
  }

  @Test
  void aMalformedOperatorPodSelectorStopsTheOperator() {
    assertThatThrownBy(
            () -> OperatorSettings.fromEnv(Map.of("DHT_OPERATOR_POD_SELECTOR", "app in (a,b)")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("DHT_OPERATOR_POD_SELECTOR");
  }

  @Test
  void readsTheEnvironment() {
    var settings =
        OperatorSettings.fromEnv(
            Map.of(
                "DHT_NODE_IMAGE", "reg/dht-node:2",
                "WATCH_NAMESPACES", " a, b ,,",
                "HEALTH_PORT", "9000",
                "LEADER_ELECTION", "false",
                "POD_NAMESPACE", "ops",
                "DHT_NODE_IMAGE_PULL_POLICY", "Always",
                "DHT_NODE_IMAGE_PULL_SECRETS", "reg-a, reg-b"));
    assertThat(settings.nodeImagePull().policy()).isEqualTo("Always");
    assertThat(settings.nodeImagePull().secrets()).containsExactly("reg-a", "reg-b");
    assertThat(settings.nodeImage()).isEqualTo("reg/dht-node:2");
    assertThat(settings.watchNamespaces()).containsExactlyInAnyOrder("a", "b");
    assertThat(settings.healthPort()).isEqualTo(9000);
    assertThat(settings.leaderElection()).isFalse();
    assertThat(settings.leaseNamespace()).isEqualTo("ops");
  }

  @Test
  void thePolicyIsTheChartsWhitespaceSeparatedLists() {
    assertThat(OperatorSettings.fromEnv(Map.of()).policy().describe())
        .isEqualTo(ChartPolicy.DEFAULT.describe());
    var policy =
        OperatorSettings.fromEnv(
                Map.of(
                    "DHT_POLICY_LOAD_TEST_TARGETS", " http://a.example:8080\n http://*.perf.svc ",
                    "DHT_POLICY_IMAGES", "registry.example.com/dht/",
                    "DHT_POLICY_JVM_OPTIONS", "-Xmx -XX:+UseZGC"))
            .policy();
    assertThat(policy.loadTestTargets().check("http://x.perf.svc").allowed()).isTrue();
    assertThat(policy.loadTestTargets().check("http://a.example:8080").allowed()).isTrue();
    assertThat(policy.images().entries()).containsExactly("registry.example.com/dht/");
    assertThat(policy.jvmOptions().prefixes()).containsExactly("-Xmx", "-XX:+UseZGC");
  }

  @Test
  void aMalformedPolicyEntryStopsTheOperatorAndNamesItsVariable() {
    assertThatThrownBy(() ->
            OperatorSettings.fromEnv(
                Map.of("DHT_POLICY_LOAD_TEST_TARGETS", "http://a.example/path")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("DHT_POLICY_LOAD_TEST_TARGETS")
        .hasMessageContaining("http://a.example/path");
    assertThatThrownBy(() -> OperatorSettings.fromEnv(Map.of("DHT_POLICY_JVM_OPTIONS", "Xmx")))
        .hasMessageContaining("DHT_POLICY_JVM_OPTIONS");
  }
}
