package dev.dht.operator.cluster;

import static dev.dht.operator.cluster.Clusters.cluster;
import static dev.dht.operator.cluster.Clusters.model;
import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.contract.MembersFile.Replication;
import dev.dht.operator.networking.AdminCallers;
import dev.dht.operator.networking.NetworkPolicySpec;
import dev.dht.operator.scaling.Membership;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Desired Services, ConfigMap, Secret, PodDisruptionBudget and NetworkPolicy. */
class SmallDependentsTest {

  @Test
  void peerServiceIsHeadlessAndPublishesUnreadyPods() {
    var service = PeerServiceDependent.build(model(cluster("demo", "ns", 3)));
    assertThat(service.getMetadata().getName()).isEqualTo("demo-peers");
    assertThat(service.getSpec().getClusterIP()).isEqualTo("None");
    assertThat(service.getSpec().getPublishNotReadyAddresses()).isTrue();
    assertThat(service.getSpec().getPorts().getFirst().getPort()).isEqualTo(8080);
    assertThat(service.getSpec().getSelector())
        .isEqualTo(Map.of("app.kubernetes.io/name", "dht", "app.kubernetes.io/instance", "demo"));
  }

  @Test
  void clientServiceIsNamedLikeTheCluster() {
    var service = ClientServiceDependent.build(model(cluster("demo", "ns", 3)));
    assertThat(service.getMetadata().getName()).isEqualTo("demo");
    assertThat(service.getSpec().getClusterIP()).isNull();
    assertThat(service.getSpec().getPorts().getFirst().getPort()).isEqualTo(8080);
    assertThat(service.getMetadata().getLabels())
        .containsEntry("app.kubernetes.io/managed-by", "dht-operator");
  }

  @Test
  void configMapHoldsTheMembersFileWithTheDefaults() {
    var cluster = cluster("demo", "ns", 2);
    var configMap = ConfigMapDependent.build(model(cluster));
    assertThat(configMap.getMetadata().getName()).isEqualTo("demo-config");
    assertThat(configMap.getData())
        .containsOnly(
            Map.entry(
                "members",
                "epoch 1\nreplication 2/2\nhttp://demo-0.demo-peers.ns.svc:8080\n"
                    + "http://demo-1.demo-peers.ns.svc:8080\n"));
  }

  /** A Secret is the cluster's only with an owner reference to this very cluster (its UID). */
  @Test
  void aSecretIsAdoptedOnlyWithAnOwnerReferenceToTheClustersUid() {
    var cluster = cluster(3);
    cluster.getMetadata().setUid("uid-demo");
    var made = SecretDependent.build(model(cluster), Optional.empty(), () -> "s");
    made.getMetadata()
        .setOwnerReferences(java.util.List.of(dev.dht.operator.kube.Owners.controller(cluster)));
    assertThat(SecretDependent.stateOf(made, cluster)).isEqualTo(SecretState.OURS);

    // as the first operator version made it (JOSDK's dependent): no controller flag
    var early = SecretDependent.build(model(cluster), Optional.empty(), () -> "s");
    early
        .getMetadata()
        .setOwnerReferences(
            java.util.List.of(
                new io.fabric8.kubernetes.api.model.OwnerReferenceBuilder()
                    .withApiVersion("dht.dev/v1")
                    .withKind("DhtCluster")
                    .withName("demo")
                    .withUid("uid-demo")
                    .build()));
    assertThat(SecretDependent.stateOf(early, cluster)).isEqualTo(SecretState.OURS);

    var someones =
        new SecretBuilder().withNewMetadata().withName("demo-secret").endMetadata().build();
    assertThat(SecretDependent.stateOf(someones, cluster)).isEqualTo(SecretState.NOT_OURS);

    // a cluster of the same name before this one: another UID
    var older = SecretDependent.build(model(cluster), Optional.empty(), () -> "s");
    older
        .getMetadata()
        .setOwnerReferences(java.util.List.of(dev.dht.operator.kube.Owners.controller(cluster)));
    older.getMetadata().getOwnerReferences().getFirst().setUid("uid-older");
    assertThat(SecretDependent.stateOf(older, cluster)).isEqualTo(SecretState.NOT_OURS);
  }

  /** A Secret is made only while no node can run with one: never applied, no StatefulSet. */
  @Test
  void aSecretIsMadeOnlyForAClusterThatNeverRan() {
    var cluster = cluster(3);
    assertThat(SecretDependent.isNew(cluster, false)).as("no status yet").isTrue();
    var status = new DhtClusterStatus();
    status.setMembership(model(cluster).membership());
    cluster.setStatus(status);
    assertThat(SecretDependent.isNew(cluster, false))
        .as("a status, but nothing applied (paused, or refused for a Secret not its own)")
        .isTrue();
    assertThat(SecretDependent.isNew(cluster, true)).as("a StatefulSet exists").isFalse();
    status.setObservedGeneration(1L);
    assertThat(SecretDependent.isNew(cluster, false)).as("applied once").isFalse();
  }

  @Test
  void secretIsGeneratedWhenAbsent() {
    var secret = SecretDependent.build(model(cluster(3)), Optional.empty(), () -> "fresh");
    assertThat(secret.getMetadata().getName()).isEqualTo("demo-secret");
    assertThat(decode(secret)).isEqualTo("fresh");
  }

  @Test
  void secretKeepsTheExistingValue() {
    var model = model(cluster(3));
    var existing = SecretDependent.build(model, Optional.empty(), () -> "first");
    var again =
        SecretDependent.build(
            model,
            Optional.of(existing),
            () -> {
              throw new AssertionError("must not generate a new secret");
            });
    assertThat(decode(again)).isEqualTo("first");
  }

  @Test
  void anEmptySecretValueIsReplaced() {
    var empty = new SecretBuilder().withData(Map.of("secret", "")).build();
    var secret = SecretDependent.build(model(cluster(3)), Optional.of(empty), () -> "new");
    assertThat(decode(secret)).isEqualTo("new");
  }

  @Test
  void generatedSecretsAreLongAndDistinct() {
    String a = SecretDependent.newSecret();
    assertThat(a).hasSizeGreaterThanOrEqualTo(40).isNotEqualTo(SecretDependent.newSecret());
  }

  @ParameterizedTest(name = "{0} replicas at {1}/{2} -> maxUnavailable {3}")
  @CsvSource({
    "1,,,0", // no redundancy: an eviction is an outage
    "2,,,0", "3,,,1", "4,,,1", "5,,,2", "5,2,3,1", "5,1,3,2", "3,3,3,0"
  })
  void disruptionBudgetKeepsEveryKeyAtDefaultQuorum(
      int replicas, Integer ack, Integer from, int maxUnavailable) {
    var cluster = cluster(replicas);
    cluster.getSpec().getReplication().setDefaultAck(ack);
    cluster.getSpec().getReplication().setDefaultFrom(from);
    var pdb = DisruptionBudgetDependent.build(model(cluster));
    assertThat(pdb.getSpec().getMaxUnavailable().getIntVal()).isEqualTo(maxUnavailable);
    assertThat(pdb.getSpec().getUnhealthyPodEvictionPolicy())
        .as("a pod that is not Ready may be evicted (a drain must not wait for it)")
        .isEqualTo("AlwaysAllow");
    assertThat(pdb.getSpec().getSelector().getMatchLabels())
        .containsEntry("app.kubernetes.io/instance", "demo");
  }

  @ParameterizedTest(name = "{0} -> {1} under way: maxUnavailable {2}")
  @CsvSource({"2/3,3/5,1", "3/5,2/3,1", "2/5,3/5,2", "2/3,3/3,0", "3/3,2/3,0"})
  void duringAChangeOfTheDefaultsTheBudgetSuitsBothRings(
      String inForce, String target, int maxUnavailable) {
    var now = replication(inForce);
    var next = replication(target);
    var cluster = cluster(5);
    cluster.getSpec().getReplication().setDefaultAck(next.ack());
    cluster.getSpec().getReplication().setDefaultFrom(next.from());
    var changing =
        Membership.stable(3, 5, now).toBuilder()
            .epoch(4)
            .step(Membership.Step.STREAMING)
            .targetAck(next.ack())
            .targetFrom(next.from())
            .build();
    var pdb = DisruptionBudgetDependent.build(model(cluster).withMembership(changing));
    assertThat(pdb.getSpec().getMaxUnavailable().getIntVal()).isEqualTo(maxUnavailable);
  }

  @Test
  void networkPolicyGuardsTheClustersNodePods() {
    var admin = new AdminCallers("dht-system", Map.of("app", "dht-operator"), null);
    var policy = NodeNetworkPolicyDependent.build(model(cluster("demo", "ns", 3)), null, admin);
    assertThat(policy.getMetadata().getName()).isEqualTo("demo");
    assertThat(policy.getMetadata().getNamespace()).isEqualTo("ns");
    assertThat(policy.getMetadata().getLabels())
        .containsEntry("app.kubernetes.io/managed-by", "dht-operator");
    assertThat(policy.getSpec().getPodSelector().getMatchLabels())
        .isEqualTo(Map.of("app.kubernetes.io/name", "dht", "app.kubernetes.io/instance", "demo"));
    assertThat(policy.getSpec().getIngress())
        .extracting(rule -> rule.getPorts().getFirst().getPort().getIntVal())
        .as("client, peer and admin ports of the split layout")
        .containsExactly(8080, 7070, 9090);
  }

  @ParameterizedTest(name = "networkPolicy.enabled {0} -> wanted {1}")
  @CsvSource({"no networkPolicy,true", "default,true", "true,true", "false,false"})
  void networkPolicyIsWantedUnlessDisabled(String enabled, boolean wanted) {
    var cluster = cluster(3);
    switch (enabled) {
      case "no networkPolicy" -> cluster.getSpec().setNetworkPolicy(null);
      case "default" -> cluster.getSpec().setNetworkPolicy(new NetworkPolicySpec());
      default ->
          cluster
              .getSpec()
              .setNetworkPolicy(
                  NetworkPolicySpec.builder().enabled(Boolean.parseBoolean(enabled)).build());
    }
    assertThat(new NetworkPolicyWanted().isMet(null, cluster, null)).isEqualTo(wanted);
  }

  private static Replication replication(String ackFrom) {
    String[] parts = ackFrom.split("/");
    return new Replication(Integer.parseInt(parts[0]), Integer.parseInt(parts[1]));
  }

  private static String decode(Secret secret) {
    return new String(
        Base64.getDecoder().decode(secret.getData().get("secret")), StandardCharsets.UTF_8);
  }
}
