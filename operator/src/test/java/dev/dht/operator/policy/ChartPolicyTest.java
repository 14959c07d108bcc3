package dev.dht.operator.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ChartPolicyTest {
  private static final ChartPolicy POLICY =
      ChartPolicy.of(List.of(), List.of("registry.example.com/dht/"), List.of("-Xmx"));

  @Test
  void theDefaultRefusesTargetUrlsOnly() {
    var policy = ChartPolicy.DEFAULT;
    assertThat(policy.loadTestTargets().check("http://a:8080").allowed()).isFalse();
    assertThat(policy.nodes("any/image:1", List.of("-javaagent:/a.jar"), "op")).isEmpty();
    assertThat(policy.describe())
        .isEqualTo("load test targets none (clusterRef only), images any, JVM options any");
  }

  @Test
  void aClusterWithoutAnImageRunsTheOperatorsWhichIsAlwaysAllowed() {
    assertThat(POLICY.nodes(null, null, "op")).isEmpty();
    assertThat(POLICY.nodes(" ", List.of(), "op")).isEmpty();
    assertThat(POLICY.nodes("op", List.of(), "op")).isEmpty();
  }

  @Test
  void theImageIsCheckedBeforeTheJvmOptions() {
    assertThat(POLICY.nodes("evil/x", List.of("-javaagent:a"), "op").orElseThrow().reason())
        .isEqualTo("ImageNotAllowed");
    assertThat(
            POLICY
                .nodes("registry.example.com/dht/x", List.of("-javaagent:a"), "op")
                .orElseThrow()
                .reason())
        .isEqualTo("JvmOptionNotAllowed");
    assertThat(POLICY.nodes("registry.example.com/dht/x", List.of("-Xmx1g"), "op")).isEmpty();
  }
}
