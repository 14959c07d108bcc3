package dev.dht.operator.cluster;

import static dev.dht.operator.cluster.Clusters.cluster;
import static dev.dht.operator.cluster.Clusters.model;
import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.contract.MembersFile.Replication;
import dev.dht.operator.rolling.PodRevision;
import dev.dht.operator.scaling.Membership;
import dev.dht.operator.settings.ClockSpec;
import dev.dht.operator.settings.CompatibilitySpec;
import dev.dht.operator.settings.MaintenanceSpec;
import dev.dht.operator.settings.RocksDbSpec;
import dev.dht.operator.settings.TopologySpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ClusterModelTest {

  @ParameterizedTest(name = "{0} replicas -> {1}/{2}")
  @CsvSource({"1,1,1", "2,2,2", "3,2,3", "4,3,4", "5,3,5"})
  void defaultConsistencyIsAMajorityOfAllNodes(int replicas, int ack, int from) {
    var model = model(cluster(replicas));
    assertThat(model.defaultAck()).isEqualTo(ack);
    assertThat(model.defaultFrom()).isEqualTo(from);
  }

  @Test
  void unsetDefaultsKeepTheValuesTheClusterStartedWithWhateverTheReplicas() {
    var cluster = cluster(5);
    var status = new DhtClusterStatus();
    status.setPinnedDefaultFrom(3);
    status.setPinnedDefaultAck(2);
    cluster.setStatus(status);
    assertThat(model(cluster).replication()).isEqualTo(new Replication(2, 3));
    assertThat(model(cluster).membersFile()).startsWith("epoch 1\nreplication 2/3\n");
    cluster.getSpec().getReplication().setDefaultFrom(5);
    assertThat(model(cluster).replication())
        .as("an explicit from wins, with its majority")
        .isEqualTo(new Replication(3, 5));
  }

  @Test
  void theMembershipOfAnOlderOperatorsStatusHasTheWantedAckFromInForce() {
    var cluster = cluster(5);
    cluster.getSpec().getReplication().setDefaultFrom(3);
    var status = new DhtClusterStatus();
    status.setMembership(Membership.builder().epoch(4).members(5).target(5).build());
    cluster.setStatus(status);
    var model = model(cluster);
    assertThat(model.membership()).isEqualTo(Membership.stable(4, 5, new Replication(2, 3)));
    assertThat(model.membersFile()).startsWith("epoch 4\nreplication 2/3\nhttp://");
  }

  @Test
  void aChangeOfTheDefaultAckFromIsPublishedAsTheNextRingsAndThenAsTheCurrentOnes() {
    var cluster = cluster(3);
    var widening =
        Membership.stable(2, 3, new Replication(2, 3)).toBuilder()
            .epoch(3)
            .step(Membership.Step.JOINING)
            .targetAck(3)
            .build();
    var model = model(cluster).withMembership(widening);
    assertThat(model.membersFile())
        .startsWith("epoch 3\nreplication 2/3\nnext-replication 3/3\nhttp://");
    String joining = model.filesHash();
    model = model.withMembership(widening.toBuilder().epoch(4).step(Membership.Step.FINAL).build());
    assertThat(model.membersFile()).startsWith("epoch 4\nreplication 3/3\nhttp://");
    assertThat(model.filesHash()).as("the pods are told at once").isNotEqualTo(joining);
  }

  @Test
  void defaultAckFollowsAnExplicitFrom() {
    var cluster = cluster(5);
    cluster.getSpec().getReplication().setDefaultFrom(3);
    assertThat(model(cluster).defaultAck()).isEqualTo(2);
    assertThat(model(cluster).membersFile()).startsWith("epoch 1\nreplication 2/3\n");
  }

  @Test
  void membersAreStableDnsNamesUnderThePeerService() {
    var model = model(cluster("demo", "prod", 3));
    assertThat(model.members())
        .containsExactly(
            "http://demo-0.demo-peers.prod.svc:8080",
            "http://demo-1.demo-peers.prod.svc:8080",
            "http://demo-2.demo-peers.prod.svc:8080");
    assertThat(model.membersFile())
        .isEqualTo("epoch 1\nreplication 2/3\n" + String.join("\n", model.members()) + "\n");
    assertThat(model.selfUrlTemplate()).isEqualTo("http://$(POD_NAME).demo-peers.prod.svc:8080");
    assertThat(model.selector())
        .isEqualTo("app.kubernetes.io/name=dht,app.kubernetes.io/instance=demo");
  }

  @Test
  void imageDefaultsToTheOperatorsNodeImage() {
    var cluster = cluster(3);
    assertThat(model(cluster).image()).isEqualTo(Clusters.IMAGE);
    cluster.getSpec().setImage("other/node:2");
    assertThat(model(cluster).image()).isEqualTo("other/node:2");
  }

  @Test
  void userJvmOptionsComeAfterTheRequiredOnes() {
    var cluster = cluster(3);
    cluster.getSpec().setJvmOptions(List.of("-Xmx512m"));
    assertThat(model(cluster).jvmOptions())
        .startsWith("--enable-native-access=ALL-UNNAMED")
        .endsWith("-Xmx512m");
  }

  @Test
  void theRevisionChangesWithEverySettingThatNeedsARestart() {
    List<Consumer<DhtClusterSpec>> restartChanges =
        List.of(
            s -> s.setImage("other/node:2"),
            s -> s.getThreads().setEventLoops(4),
            s -> s.getThreads().setStorageWorkers(16),
            s -> s.getLimits().setMaxInflight(100),
            s -> s.getLimits().setRequestTimeoutMs(50),
            s -> s.getLimits().setMaxValueBytes(10),
            s -> s.setJvmOptions(List.of("-Xmx1g")),
            s -> s.setResources(resources(Map.of("memory", "1Gi"))),
            s -> s.getLimits().setMaxKeyBytes(64),
            s -> s.getLimits().setPeerMaxPendingBytes(1L << 20),
            s -> s.setMaintenance(MaintenanceSpec.builder().repairIntervalSeconds(60L).build()),
            s -> s.setMaintenance(MaintenanceSpec.builder().hintWindowSeconds(0L).build()),
            s -> s.setClock(ClockSpec.builder().maxOffsetMs(100L).build()),
            s -> s.setRocksdb(RocksDbSpec.builder().blockCacheMb(256L).build()),
            s -> s.setCompatibility(CompatibilitySpec.builder().peerFrames(false).build()),
            s -> s.setTopology(TopologySpec.builder().requiredHostAntiAffinity(true).build()),
            s -> s.setTopology(TopologySpec.builder().zoneKey("example.com/rack").build()));
    var base = model(cluster(3)).desiredRevision().revision();
    for (var change : restartChanges) {
      var cluster = cluster(3);
      change.accept(cluster.getSpec());
      var changed = model(cluster).desiredRevision().revision();
      assertThat(changed.changesFrom(base)).contains("settings").hasSizeGreaterThan(1);
    }
  }

  @Test
  void aSpecStoredBeforeTheNodeSettingsExistedHasTheRestartInputsItHad() {
    // the apiserver fills in the three limits with defaults and none of the later fields
    var tree = CanonicalJson.tree(cluster(3).getSpec());
    assertThat(tree.get("limits").properties())
        .extracting(Map.Entry::getKey)
        .containsExactlyInAnyOrder("maxInflight", "requestTimeoutMs", "maxValueBytes");
    assertThat(tree.has("maintenance") || tree.has("clock") || tree.has("rocksdb")).isFalse();
    assertThat(tree.has("compatibility")).isFalse();
    assertThat(model(cluster(3)).settingFlags()).isEmpty();
  }

  @Test
  void anEmptySectionOfNodeSettingsIsNoSetting() {
    var empty = cluster(3);
    empty.getSpec().setTopology(new TopologySpec());
    empty.getSpec().setMaintenance(new MaintenanceSpec());
    assertThat(model(empty).desiredRevision()).isEqualTo(model(cluster(3)).desiredRevision());
  }

  @Test
  void theRevisionIgnoresSettingsTheNodesReload() {
    var base = model(cluster(3)).desiredRevision();
    var cluster = cluster(5);
    cluster.getSpec().getReplication().setDefaultFrom(3);
    cluster.getSpec().getReplication().setDefaultAck(1);
    cluster.getSpec().getStorage().setSize("5Gi");
    cluster.getSpec().setOperatorUpgrades(DhtClusterSpec.OperatorUpgrades.Automatic);
    cluster.getSpec().setTopology(TopologySpec.builder().placeReplicasByZone(false).build());
    assertThat(model(cluster).desiredRevision()).isEqualTo(base);
    cluster.getSpec().setTopology(TopologySpec.builder().requiredHostAntiAffinity(true).build());
    assertThat(model(cluster).desiredRevision())
        .as("the rest of topology restarts")
        .isNotEqualTo(base);
  }

  @Test
  void specTlsIsNoRestartInputOfItsOwn() {
    // what TLS changes in a pod is in the rendered template; the new field's default alone must not
    // restart the nodes of a cluster stored before it existed
    var stored = cluster(3);
    stored.getSpec().setTls(null);
    var off = cluster(3);
    off.getSpec().setTls(dev.dht.operator.tls.TlsSpec.builder().enabled(false).build());
    assertThat(model(stored).inputs())
        .isEqualTo(model(cluster(3)).inputs())
        .isEqualTo(model(off).inputs());
  }

  @Test
  void aRestartAskedForChangesTheRevisionAndNoAnnotationLeavesItAsItWas() {
    var plain = cluster(3);
    var asked = cluster(3);
    asked
        .getMetadata()
        .setAnnotations(Map.of(DhtCluster.RESTARTED_AT_ANNOTATION, "2026-11-27T13:00Z"));
    var again = cluster(3);
    again
        .getMetadata()
        .setAnnotations(Map.of(DhtCluster.RESTARTED_AT_ANNOTATION, "2026-11-27T14:00Z"));
    var other = cluster(3);
    other.getMetadata().setAnnotations(Map.of("example.com/unrelated", "x"));

    assertThat(model(asked).desiredRevision()).isNotEqualTo(model(plain).desiredRevision());
    assertThat(model(again).desiredRevision()).isNotEqualTo(model(asked).desiredRevision());
    assertThat(model(other).desiredRevision()).isEqualTo(model(plain).desiredRevision());
    assertThat(model(plain).inputs())
        .as("the hash of a cluster that never asked is the one before the annotation existed")
        .isEqualTo(ClusterModel.inputs(plain.getSpec(), model(plain).defaults(), null));
  }

  @Test
  void theRevisionDoesNotDependOnResourceKeyOrder() {
    var a = new LinkedHashMap<String, String>();
    a.put("cpu", "1");
    a.put("memory", "1Gi");
    var b = new LinkedHashMap<String, String>();
    b.put("memory", "1Gi");
    b.put("cpu", "1");
    var first = cluster(3);
    first.getSpec().setResources(resources(a));
    var second = cluster(3);
    second.getSpec().setResources(resources(b));
    assertThat(model(first).desiredRevision()).isEqualTo(model(second).desiredRevision());
    assertThat(model(first).inputs()).isEqualTo(model(second).inputs());
  }

  @Test
  void aClusterRecordedByAnOlderOperatorKeepsItsPodsUntilASettingChanges() {
    String json =
        """
        {"apiVersion": "dht.dev/v1", "kind": "DhtCluster",
         "metadata": {"name": "demo", "namespace": "ns"},
         "spec": {"replicas": 3},
         "status": {"operatorDefaults":
           {"image": "local/dht-node:old", "jvmOptions": [], "templateVersion": 4}}}\
        """;
    var cluster = Serialization.unmarshal(json, DhtCluster.class);
    var current = OperatorDefaults.current(Clusters.IMAGE);
    var held = ClusterModel.of(cluster, UpgradeGate.accepted(cluster, current)).desiredRevision();
    assertThat(held.templateAccepted()).isFalse();
    assertThat(held.needsRestart(PodRevision.ofOlderOperator("0123456789abcdef")))
        .as("a pod of the older operator")
        .isFalse();
    var otherShape = new TreeMap<>(held.revision().parts());
    otherShape.put("template", "00000000");
    otherShape.put("flags", "00000000");
    assertThat(held.needsRestart(new PodRevision(otherShape)))
        .as("a pod that differs by the operator's template only")
        .isFalse();

    cluster.getSpec().getLimits().setMaxInflight(10);
    var changed = ClusterModel.of(cluster, UpgradeGate.accepted(cluster, current));
    assertThat(changed.desiredRevision().needsRestart(new PodRevision(otherShape)))
        .as("a setting that needs a restart changed")
        .isTrue();
  }

  private static ResourceRequirements resources(Map<String, String> limits) {
    var requirements = new ResourceRequirements();
    var quantities = new LinkedHashMap<String, Quantity>();
    limits.forEach((k, v) -> quantities.put(k, new Quantity(v)));
    requirements.setLimits(quantities);
    return requirements;
  }
}
