package dev.dht.operator.backup.controller;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.operator.backup.BackupPhases;
import dev.dht.operator.backup.BackupSpec;
import dev.dht.operator.backup.ObjectStoreSpec;
import dev.dht.operator.backup.Verifications;
import dev.dht.operator.cluster.DhtCluster;
import dev.dht.operator.cluster.DhtClusterSpec;
import dev.dht.operator.cluster.DhtClusterStatus;
import dev.dht.operator.cluster.ObservedNode;
import dev.dht.operator.cluster.Transport;
import dev.dht.operator.kube.Conditions;
import dev.dht.operator.scaling.Membership;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

class ClusterReadinessTest {
  static final List<String> MEMBERS =
      List.of("http://demo-0.demo-peers.ns.svc:8080", "http://demo-1.demo-peers.ns.svc:8080");

  /** A cluster of two members, ready, with a store without a path. */
  static DhtCluster ready() {
    var cluster = new DhtCluster();
    cluster.setMetadata(
        new ObjectMetaBuilder().withName("demo").withNamespace("ns").withGeneration(3L).build());
    var spec = new DhtClusterSpec();
    spec.setReplicas(2);
    spec.setBackup(
        BackupSpec.builder()
            .objectStore(ObjectStoreSpec.builder().bucket("backups").endpoint("http://s3").build())
            .build());
    cluster.setSpec(spec);
    var membership =
        Membership.builder().epoch(4).members(2).target(2).step(Membership.Step.STABLE).build();
    cluster.setStatus(
        DhtClusterStatus.builder()
            .observedGeneration(3L)
            .members(MEMBERS)
            .memberCount(2)
            .transport(Transport.Tls)
            .membership(membership)
            .nodes(List.of(node("demo-0"), node("demo-1")))
            .conditions(
                List.of(
                    condition(Conditions.READY, "True", "AllReady"),
                    condition(Conditions.PROGRESSING, "False", "Stable")))
            .build());
    return cluster;
  }

  static ObservedNode node(String name) {
    return ObservedNode.builder().name(name).ready(true).epoch(4).dataPhase("serving").build();
  }

  static Condition condition(String type, String status, String reason) {
    return new ConditionBuilder().withType(type).withStatus(status).withReason(reason).build();
  }

  static ClusterReadiness.Verdict with(Consumer<DhtCluster> change) {
    var cluster = ready();
    change.accept(cluster);
    return ClusterReadiness.of(cluster, "demo");
  }

  static String busyReason(ClusterReadiness.Verdict verdict) {
    assertThat(verdict).isInstanceOf(ClusterReadiness.Wait.class);
    var wait = (ClusterReadiness.Wait) verdict;
    assertThat(wait.reason()).isEqualTo(BackupPhases.CLUSTER_BUSY);
    return wait.message();
  }

  @Test
  void aReadyClusterGivesItsMembersTransportAndTheStoreWithItsPathResolved() {
    var verdict = ClusterReadiness.of(ready(), "demo");
    assertThat(verdict)
        .isEqualTo(
            new ClusterReadiness.Ready(
                MEMBERS,
                Transport.Tls,
                ObjectStoreSpec.builder()
                    .bucket("backups")
                    .endpoint("http://s3")
                    .path("ns/demo")
                    .build()));
  }

  @Test
  void noClusterOrNoStoreWaitsForThem() {
    assertThat(ClusterReadiness.of(null, "demo"))
        .isInstanceOfSatisfying(
            ClusterReadiness.Wait.class,
            w -> assertThat(w.reason()).isEqualTo(BackupPhases.CLUSTER_NOT_FOUND));
    assertThat(with(c -> c.getSpec().setBackup(null)))
        .isInstanceOfSatisfying(
            ClusterReadiness.Wait.class,
            w -> assertThat(w.reason()).isEqualTo(BackupPhases.NO_BACKUP_STORE));
    assertThat(
            with(c ->
                c.getStatus()
                    .setConditions(
                        List.of(
                            condition(Conditions.READY, "True", "AllReady"),
                            condition(BackupSpec.CONDITION, "False", "InvalidBackupStore")))))
        .isInstanceOfSatisfying(
            ClusterReadiness.Wait.class,
            w -> {
              assertThat(w.reason()).isEqualTo(BackupPhases.NO_BACKUP_STORE);
              assertThat(w.message()).contains("InvalidBackupStore");
            });
  }

  @Test
  void aClusterThatIsNotReadyOrChangesIsBusy() {
    assertThat(busyReason(with(c -> c.setStatus(null)))).contains("no running members");
    assertThat(busyReason(with(c -> c.getMetadata().setGeneration(4L))))
        .contains("not applied yet");
    assertThat(
            busyReason(
                with(c ->
                    c.getStatus()
                        .setConditions(
                            List.of(
                                condition(Conditions.READY, "False", "NotAllReady"),
                                condition(Conditions.PROGRESSING, "False", "Stable"))))))
        .contains("not Ready: NotAllReady");
    assertThat(
            busyReason(
                with(c ->
                    c.getStatus()
                        .setConditions(
                            List.of(
                                condition(Conditions.READY, "True", "AllReady"),
                                condition(Conditions.PROGRESSING, "True", "Rolling"))))))
        .contains("changing: Rolling");
    assertThat(
            busyReason(with(c -> c.getStatus().getMembership().setStep(Membership.Step.STREAMING))))
        .contains("STREAMING");
    assertThat(busyReason(with(c -> c.getStatus().getNodes().get(1).setReady(false))))
        .contains("demo-1 not Ready");
    assertThat(busyReason(with(c -> c.getStatus().getNodes().get(0).setEpoch(3))))
        .contains("demo-0 at membership epoch 3");
    assertThat(busyReason(with(c -> c.getStatus().getNodes().get(0).setDataPhase("bootstrapping"))))
        .contains("not serving yet");
    assertThat(busyReason(with(c -> c.getStatus().setNodes(List.of(node("demo-0"))))))
        .contains("1 nodes for 2 members");
  }

  static final ObjectStoreSpec BACKUP_STORE =
      ObjectStoreSpec.builder().bucket("backups").endpoint("http://s3").path("ns/demo").build();

  @Test
  void aBackupIsVerifiedOnTheLowestReadyMemberOfAClusterBackingUpToItsStore() {
    assertThat(ClusterReadiness.verifier(ready(), "demo", BACKUP_STORE))
        .isEqualTo(new ClusterReadiness.Verifier(0, MEMBERS.get(0), Transport.Tls));

    // a node not Ready, or not serving yet, is passed over; a rolling cluster is no reason to wait
    var cluster = ready();
    cluster.getStatus().getNodes().get(0).setReady(false);
    cluster.getStatus().setConditions(List.of(condition(Conditions.READY, "False", "Rolling")));
    assertThat(ClusterReadiness.verifier(cluster, "demo", BACKUP_STORE))
        .isEqualTo(new ClusterReadiness.Verifier(1, MEMBERS.get(1), Transport.Tls));
    cluster.getStatus().getNodes().get(1).setDataPhase("pulling");
    var none = ClusterReadiness.verifier(cluster, "demo", BACKUP_STORE);
    assertThat(none).isInstanceOf(ClusterReadiness.Wait.class);
    assertThat(((ClusterReadiness.Wait) none).reason()).isEqualTo(BackupPhases.CLUSTER_BUSY);
  }

  @Test
  void aBackupIsNotVerifiedWithoutItsClusterOrByOneBackingUpElsewhere() {
    assertThat(ClusterReadiness.verifier(null, "demo", BACKUP_STORE))
        .extracting(v -> ((ClusterReadiness.Wait) v).reason())
        .isEqualTo(BackupPhases.CLUSTER_NOT_FOUND);
    var other = ready();
    other.getSpec().getBackup().getObjectStore().setBucket("elsewhere");
    var verdict = ClusterReadiness.verifier(other, "demo", BACKUP_STORE);
    assertThat(verdict).isInstanceOf(ClusterReadiness.Wait.class);
    var wait = (ClusterReadiness.Wait) verdict;
    assertThat(wait.reason()).isEqualTo(Verifications.STORE_CHANGED);
    assertThat(wait.message())
        .contains("bucket elsewhere")
        .contains("bucket backups under ns/demo");
    var noStore = ready();
    noStore.getSpec().setBackup(null);
    assertThat(ClusterReadiness.verifier(noStore, "demo", BACKUP_STORE))
        .extracting(v -> ((ClusterReadiness.Wait) v).reason())
        .isEqualTo(BackupPhases.NO_BACKUP_STORE);
  }
}
