package dev.dht.operator.loadtest.job;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.operator.cluster.DhtCluster;
import dev.dht.operator.cluster.DhtClusterSpec.PullPolicy;
import dev.dht.operator.cluster.ImagePull;
import dev.dht.operator.loadtest.LoadTests;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Generator pods pull like the target cluster's nodes; a targetUrl's, as the operator says. */
class GeneratorImagePullTest {
  private static final ImagePull OPERATOR = new ImagePull("IfNotPresent", List.of("operator-reg"));

  private static DhtCluster cluster(PullPolicy policy, String... secrets) {
    var cluster = LoadTests.cluster("demo", true);
    cluster.getSpec().setImagePullPolicy(policy);
    cluster
        .getSpec()
        .setImagePullSecrets(List.of(secrets).stream().map(LocalObjectReference::new).toList());
    return cluster;
  }

  private static ImagePull of(DhtCluster cluster) {
    return GeneratorImagePull.of(
        LoadTests.test("put", "demo"), Optional.ofNullable(cluster), OPERATOR);
  }

  @Test
  void aClusterThatSetsNeitherLeavesTheOperatorsDefaults() {
    assertThat(of(cluster(null))).isEqualTo(OPERATOR);
  }

  @Test
  void theClustersPolicyAndSecretsWinEachOnItsOwn() {
    assertThat(of(cluster(PullPolicy.Always)))
        .isEqualTo(new ImagePull("Always", List.of("operator-reg")));
    assertThat(of(cluster(null, "team-reg")))
        .isEqualTo(new ImagePull("IfNotPresent", List.of("team-reg")));
    assertThat(of(cluster(PullPolicy.Never, "team-reg", "mirror")))
        .isEqualTo(new ImagePull("Never", List.of("team-reg", "mirror")));
  }

  @Test
  void withoutItsClusterOrForATargetUrlTheOperatorsDefaultsHold() {
    assertThat(of(null)).isEqualTo(OPERATOR);

    var other = cluster(PullPolicy.Always, "team-reg");
    other.getMetadata().setName("other");
    assertThat(of(other)).as("a cluster the test does not name").isEqualTo(OPERATOR);

    var external = LoadTests.test("ext", "unused");
    external.getSpec().setClusterRef(null);
    external.getSpec().setTargetUrl("http://10.1.2.3:8080");
    assertThat(
            GeneratorImagePull.of(
                external, Optional.of(cluster(PullPolicy.Always, "team-reg")), OPERATOR))
        .isEqualTo(OPERATOR);
  }
}
