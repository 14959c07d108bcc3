package dev.dht.operator.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dht.operator.CommittedCrdNamespace;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The committed CRD (crds/) on a real kube-apiserver: defaults, CEL rules and the transition rule
 * that refuses scale-down. No operator runs here: bad specs must be refused before anyone sees
 * them.
 */
class DhtClusterValidationTest {
  static CommittedCrdNamespace apiserver;
  static KubernetesClient client;
  static String ns;

  @BeforeAll
  static void installCrd() throws Exception {
    apiserver = CommittedCrdNamespace.create(CrdFileIsCurrentTest.committed(), "dht-validation-");
    client = apiserver.client();
    ns = apiserver.name();
  }

  @AfterAll
  static void cleanUp() {
    if (apiserver != null) {
      apiserver.close();
    }
  }

  private static GenericKubernetesResource create(String name, String spec) {
    return apiserver.create("DhtCluster", name, spec);
  }

  private static DhtCluster read(String name) {
    return client.resources(DhtCluster.class).inNamespace(ns).withName(name).get();
  }

  @Test
  void theApiserverFillsInTheDefaults() {
    create("defaults", "{}");
    var spec = read("defaults").getSpec();
    assertThat(spec.getReplicas()).isEqualTo(3);
    // the thread counts follow the pod's CPU (NodeThreads): no fixed default
    assertThat(spec.getThreads().getEventLoops()).isNull();
    assertThat(spec.getThreads().getStorageWorkers()).isNull();
    assertThat(spec.getLimits().getMaxInflight()).isEqualTo(4096);
    assertThat(spec.getLimits().getRequestTimeoutMs()).isEqualTo(1000);
    assertThat(spec.getLimits().getMaxValueBytes()).isEqualTo(1048576);
    assertThat(spec.getStorage().getSize()).isEqualTo("1Gi");
    assertThat(spec.getReplication().getDefaultAck()).isNull();
    assertThat(spec.getReplication().getDefaultFrom()).isNull();
    assertThat(spec.getNetworkPolicy())
        .as("no default: one would change the spec of every existing cluster")
        .isNull();
  }

  @Test
  void networkPolicyClientsAreCheckedAndEnabledDefaultsToTrue() {
    create(
        "clients",
        "{networkPolicy: {clientsFrom: [{namespaceSelector: {matchLabels: {team: web}},"
            + " podSelector: {matchExpressions: [{key: app, operator: In, values: [web]}]}},"
            + " {ipBlock: {cidr: 10.1.0.0/16, except: [10.1.2.0/24]}}]}}");
    var networkPolicy = read("clients").getSpec().getNetworkPolicy();
    assertThat(networkPolicy.getEnabled()).isTrue();
    assertThat(networkPolicy.getClientsFrom()).hasSize(2);
    assertThat(networkPolicy.getClientsFrom().get(1).getIpBlock().getExcept())
        .containsExactly("10.1.2.0/24");
    String message = "each entry of networkPolicy.clientsFrom names pods";
    assertRefused(() -> create("empty-peer", "{networkPolicy: {clientsFrom: [{}]}}"), message);
    assertRefused(
        () ->
            create(
                "mixed-peer",
                "{networkPolicy: {clientsFrom: [{ipBlock: {cidr: 10.0.0.0/8}, podSelector: {}}]}}"),
        message);
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
  void replicasCanGrowAndShrinkButNotBelowAnExplicitDefaultFrom() {
    create("scale", "{replicas: 3, replication: {defaultFrom: 3}}");
    var clusters = client.resources(DhtCluster.class).inNamespace(ns).withName("scale");
    clusters.edit(c -> withReplicas(c, 5));
    assertThat(read("scale").getSpec().getReplicas()).isEqualTo(5);
    clusters.scale(4); // the scale subresource, as kubectl scale does
    assertThat(read("scale").getSpec().getReplicas()).isEqualTo(4);

    String message = "replication.defaultFrom must not exceed replicas";
    assertRefused(() -> clusters.edit(c -> withReplicas(c, 2)), message);
    assertThat(read("scale").getSpec().getReplicas()).isEqualTo(4);
  }

  @Test
  void namesMustFitEveryDerivedName() {
    String longest = "n" + "x".repeat(DhtCluster.MAX_NAME - 1);
    create(longest, "{}");
    assertRefused(() -> create(longest + "y", "{}"), "at most 52 characters");
    // a DNS-1123 subdomain passes Kubernetes' own check, but not a Service name's DNS-1035
    assertRefused(() -> create("1-starts-with-a-digit", "{}"), "DNS-1035");
    assertRefused(() -> create("has.dots", "{}"), "DNS-1035");
  }

  @Test
  void storageSizeMayChangeButNotItsClass() {
    create("storage", "{storage: {size: 1Gi}}");
    var clusters = client.resources(DhtCluster.class).inNamespace(ns).withName("storage");
    clusters.edit(c -> {
      c.getSpec().getStorage().setSize("2Gi");
      return c;
    });
    assertThat(read("storage").getSpec().getStorage().getSize()).isEqualTo("2Gi");
    clusters.edit(c -> {
      c.getSpec().getStorage().setSize("1Gi"); // back, after a refused expansion
      return c;
    });
    assertRefused(
        () ->
            clusters.edit(c -> {
              c.getSpec().getStorage().setStorageClassName("fast");
              return c;
            }),
        "storage.storageClassName cannot change");
  }

  private static DhtCluster withReplicas(DhtCluster cluster, int replicas) {
    cluster.getSpec().setReplicas(replicas);
    return cluster;
  }

  @Test
  void maintenanceKeepsTombstonesLongerThanRepairAndHintsWithTheNodesDefaultsForUnsetFields() {
    create(
        "maintained",
        "{maintenance: {repairIntervalSeconds: 600, tombstoneGraceSeconds: 7200,"
            + " hintWindowSeconds: 1800}, clock: {maxOffsetMs: 250}, rocksdb: {blockCacheMb: 128},"
            + " limits: {maxKeyBytes: 100}, compatibility: {peerFrames: false}}");
    var spec = read("maintained").getSpec();
    assertThat(spec.getMaintenance().getRepairIntervalSeconds()).isEqualTo(600L);
    assertThat(spec.getMaintenance().getMaxHintBytes()).as("no CRD default").isNull();
    assertThat(spec.getLimits().getMaxKeyBytes()).isEqualTo(100);
    create("short-interval", "{maintenance: {repairIntervalSeconds: 60}}");

    String repair = "tombstoneGraceSeconds (default 86400) must be longer than repairInterval";
    assertRefused(
        () ->
            create(
                "grace-equal",
                "{maintenance: {repairIntervalSeconds: 600, tombstoneGraceSeconds: 600}}"),
        repair);
    assertRefused(
        () -> create("interval-past-default", "{maintenance: {repairIntervalSeconds: 86400}}"),
        repair);
    assertRefused(
        () -> create("grace-under-default", "{maintenance: {tombstoneGraceSeconds: 3600}}"),
        repair);
    assertRefused(
        () ->
            create(
                "hints-outlive",
                "{maintenance: {tombstoneGraceSeconds: 7200, hintWindowSeconds: 7200,"
                    + " repairIntervalSeconds: 60}}"),
        "tombstoneGraceSeconds (default 86400) must be longer than hintWindowSeconds");
    assertRefused(
        () -> create("no-repair", "{maintenance: {repairIntervalSeconds: 0}}"),
        "spec.maintenance.repairIntervalSeconds");
    assertRefused(
        () -> create("huge-key", "{limits: {maxKeyBytes: 3000000000}}"), "spec.limits.maxKeyBytes");
    assertRefused(
        () -> create("huge-loops", "{threads: {eventLoops: 3000000000}}"),
        "spec.threads.eventLoops");
  }

  @Test
  void topologyTakesALabelKey() {
    create("racks", "{topology: {zoneKey: example.com/rack, requiredHostAntiAffinity: true}}");
    assertThat(read("racks").getSpec().getTopology().getZoneKey()).isEqualTo("example.com/rack");
    assertThat(read("racks").getSpec().getTopology().hostsRequired()).isTrue();
    assertRefused(
        () -> create("bad-key", "{topology: {zoneKey: 'not a key'}}"), "spec.topology.zoneKey");
  }

  private static void assertRefused(Runnable request, String message) {
    assertThatThrownBy(request::run)
        .isInstanceOfSatisfying(
            KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(422))
        .hasMessageContaining(message);
  }
}
