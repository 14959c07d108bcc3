package dev.dht.operator;

import static org.assertj.core.api.Assertions.assertThat;

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
                "POD_NAMESPACE", "ops"));
    assertThat(settings.nodeImage()).isEqualTo("reg/dht-node:2");
    assertThat(settings.watchNamespaces()).containsExactlyInAnyOrder("a", "b");
    assertThat(settings.healthPort()).isEqualTo(9000);
    assertThat(settings.leaderElection()).isFalse();
    assertThat(settings.leaseNamespace()).isEqualTo("ops");
  }
}
