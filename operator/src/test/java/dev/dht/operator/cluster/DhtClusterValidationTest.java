package dev.dht.operator.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.nio.file.Files;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The committed CRD (crds/) on a real kube-apiserver: defaults, CEL rules and the transition rule
 * that refuses scale-down. No operator runs here: bad specs must be refused before anyone sees
 * them.
 */
class DhtClusterValidationTest {
  static KubernetesClient client;
  static String ns;

  @BeforeAll
  static void installCrd() throws Exception {
    client = new KubernetesClientBuilder().build();
    try (var crdFile = Files.newInputStream(CrdFileIsCurrentTest.committed())) {
      var crd =
          client.getKubernetesSerialization().unmarshal(crdFile, CustomResourceDefinition.class);
      client.resource(crd).forceConflicts().serverSideApply();
      client
          .resource(crd)
          .waitUntilCondition(
              c ->
                  c != null
                      && c.getStatus() != null
                      && c.getStatus().getConditions().stream()
                          .anyMatch(x ->
                              "Established".equals(x.getType()) && "True".equals(x.getStatus())),
              30,
              TimeUnit.SECONDS);
    }
    ns = "dht-validation-" + UUID.randomUUID().toString().substring(0, 8);
    client
        .namespaces()
        .resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
        .create();
  }

  @AfterAll
  static void cleanUp() {
    if (client != null) {
      client.namespaces().withName(ns).delete();
      client.close();
    }
  }

  private static GenericKubernetesResource create(String name, String spec) {
    String yaml =
        """
        apiVersion: dht.dev/v1alpha1
        kind: DhtCluster
        metadata: {name: %s, namespace: %s}
        spec: %s
        """
            .formatted(name, ns, spec);
    var resource = Serialization.unmarshal(yaml, GenericKubernetesResource.class);
    return client.resource(resource).create();
  }

  private static DhtCluster read(String name) {
    return client.resources(DhtCluster.class).inNamespace(ns).withName(name).get();
  }

  @Test
  void theApiserverFillsInTheDefaults() {
    create("defaults", "{}");
    var spec = read("defaults").getSpec();
    assertThat(spec.getReplicas()).isEqualTo(3);
    assertThat(spec.getThreads().getEventLoops()).isEqualTo(2);
    assertThat(spec.getThreads().getStorageWorkers()).isEqualTo(8);
    assertThat(spec.getLimits().getMaxInflight()).isEqualTo(4096);
    assertThat(spec.getLimits().getRequestTimeoutMs()).isEqualTo(1000);
    assertThat(spec.getLimits().getMaxValueBytes()).isEqualTo(1048576);
    assertThat(spec.getStorage().getSize()).isEqualTo("1Gi");
    assertThat(spec.getReplication().getDefaultAck()).isNull();
    assertThat(spec.getReplication().getDefaultFrom()).isNull();
  }

  @Test
  void ackAboveFromIsRefused() {
    assertRefused(
        () -> create("ack-gt-from", "{replicas: 3, replication: {defaultAck: 3, defaultFrom: 2}}"),
        "replication.defaultAck must not exceed replication.defaultFrom");
  }

  @Test
  void ackAboveReplicasIsRefusedWhenFromDefaults() {
    assertRefused(
        () -> create("ack-gt-n", "{replicas: 1, replication: {defaultAck: 2}}"),
        "replication.defaultAck must not exceed replication.defaultFrom (default: replicas)");
  }

  @Test
  void fromAboveReplicasIsRefused() {
    assertRefused(
        () -> create("from-gt-n", "{replicas: 3, replication: {defaultFrom: 4}}"),
        "replication.defaultFrom must not exceed replicas");
  }

  @Test
  void nonPositiveSizesAreRefused() {
    assertRefused(() -> create("zero-ack", "{replication: {defaultAck: 0}}"), "defaultAck");
    assertRefused(() -> create("zero-loops", "{threads: {eventLoops: 0}}"), "eventLoops");
    assertRefused(() -> create("neg-inflight", "{limits: {maxInflight: -1}}"), "maxInflight");
    assertRefused(() -> create("zero-replicas", "{replicas: 0}"), "replicas");
  }

  @Test
  void replicasCanGrowButNeverShrink() {
    create("scale", "{replicas: 3}");
    var clusters = client.resources(DhtCluster.class).inNamespace(ns).withName("scale");
    clusters.edit(c -> withReplicas(c, 4));
    assertThat(read("scale").getSpec().getReplicas()).isEqualTo(4);

    String message = "replicas cannot be decreased: scale-down needs data movement";
    assertRefused(() -> clusters.edit(c -> withReplicas(c, 2)), message);
    assertRefused(() -> clusters.scale(1), message); // the scale subresource is guarded too
    assertThat(read("scale").getSpec().getReplicas()).isEqualTo(4);
  }

  @Test
  void storageIsImmutable() {
    create("storage", "{storage: {size: 1Gi}}");
    assertRefused(
        () ->
            client
                .resources(DhtCluster.class)
                .inNamespace(ns)
                .withName("storage")
                .edit(c -> {
                  c.getSpec().getStorage().setSize("2Gi");
                  return c;
                }),
        "storage is immutable");
  }

  private static DhtCluster withReplicas(DhtCluster cluster, int replicas) {
    cluster.getSpec().setReplicas(replicas);
    return cluster;
  }

  private static void assertRefused(Runnable request, String message) {
    assertThatThrownBy(request::run)
        .isInstanceOfSatisfying(
            KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(422))
        .hasMessageContaining(message);
  }
}
