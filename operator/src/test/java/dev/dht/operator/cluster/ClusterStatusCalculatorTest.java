package dev.dht.operator.cluster;

import static dev.dht.operator.cluster.Clusters.cluster;
import static dev.dht.operator.cluster.Clusters.model;
import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.operator.Conditions;
import dev.dht.operator.scaling.Membership;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ClusterStatusCalculatorTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final Instant T1 = Instant.parse("2026-01-01T00:05:00Z");

  private DhtCluster cluster;

  @BeforeEach
  void setUp() {
    cluster = cluster(3);
  }

  /** The StatefulSet built for the current spec, with the given status. */
  private StatefulSet sts(int ready, int updated, boolean settled, boolean observed) {
    var sts = StatefulSetDependent.build(model(cluster));
    return new StatefulSetBuilder(sts)
        .editMetadata()
        .withGeneration(4L)
        .endMetadata()
        .withNewStatus()
        .withObservedGeneration(observed ? 4L : 3L)
        .withReplicas(3)
        .withReadyReplicas(ready)
        .withUpdatedReplicas(updated)
        .withCurrentRevision("r1")
        .withUpdateRevision(settled ? "r1" : "r2")
        .endStatus()
        .build();
  }

  private DhtClusterStatus compute(Optional<StatefulSet> sts, boolean paused, Instant now) {
    return compute(sts, paused, null, now);
  }

  private DhtClusterStatus compute(
      Optional<StatefulSet> sts, boolean paused, Exception failure, Instant now) {
    var status =
        ClusterStatusCalculator.compute(
            new ClusterStatusCalculator.Observation(
                cluster, model(cluster), sts, paused, failure, now));
    cluster.setStatus(status);
    return status;
  }

  private static Condition condition(DhtClusterStatus status, String type) {
    return Conditions.find(status.getConditions(), type).orElseThrow();
  }

  private static void assertCondition(
      DhtClusterStatus status, String type, String value, String reason) {
    var c = condition(status, type);
    assertThat(c.getStatus()).as(type).isEqualTo(value);
    assertThat(c.getReason()).as(type + " reason").isEqualTo(reason);
  }

  @Test
  void beforeTheStatefulSetExistsTheClusterIsBeingCreated() {
    var status = compute(Optional.empty(), false, T0);
    assertCondition(status, "Ready", "False", "Creating");
    assertCondition(status, "Progressing", "True", "Creating");
    assertCondition(status, "Degraded", "False", "AsExpected");
    assertThat(status.getObservedGeneration()).isEqualTo(1L);
    assertThat(status.getMembers()).hasSize(3);
    assertThat(status.getConfigHash()).isEqualTo(model(cluster).configHash());
    assertThat(status.getSelector()).contains("app.kubernetes.io/instance=demo");
    assertThat(status.getDefaultAck()).isEqualTo(2);
    assertThat(status.getDefaultFrom()).isEqualTo(3);
  }

  @Test
  void waitingForFreshPodsIsProgressNotDegradation() {
    var status = compute(Optional.of(sts(1, 3, true, true)), false, T0);
    assertCondition(status, "Ready", "False", "ReplicasNotReady");
    assertCondition(status, "Progressing", "True", "WaitingForReplicas");
    assertCondition(status, "Degraded", "False", "AsExpected");
    assertThat(status.getReadyReplicas()).isEqualTo(1);
    assertThat(condition(status, "Ready").getMessage()).isEqualTo("1/3 replicas ready");
  }

  @Test
  void allReplicasReadyAndUpdatedIsReady() {
    var status = compute(Optional.of(sts(3, 3, true, true)), false, T0);
    assertCondition(status, "Ready", "True", "AllReplicasReady");
    assertCondition(status, "Progressing", "False", "RolloutComplete");
    assertCondition(status, "Degraded", "False", "AsExpected");
  }

  @Test
  void losingAReplicaAfterBeingReadyIsDegraded() {
    compute(Optional.of(sts(3, 3, true, true)), false, T0);
    var status = compute(Optional.of(sts(2, 3, true, true)), false, T1);
    assertCondition(status, "Ready", "False", "ReplicasNotReady");
    assertCondition(status, "Progressing", "False", "RolloutComplete");
    assertCondition(status, "Degraded", "True", "ReplicasNotReady");
    // and stays degraded on the next reconcile
    status = compute(Optional.of(sts(2, 3, true, true)), false, T1);
    assertCondition(status, "Degraded", "True", "ReplicasNotReady");
  }

  @Test
  void aRollingUpdateIsProgressing() {
    compute(Optional.of(sts(3, 3, true, true)), false, T0);
    cluster.getMetadata().setGeneration(2L);
    cluster.getSpec().getThreads().setEventLoops(7); // new config hash
    var status = compute(Optional.of(sts(2, 1, false, true)), false, T1);
    assertCondition(status, "Progressing", "True", "RollingOut");
    assertCondition(status, "Degraded", "False", "AsExpected");
    assertThat(condition(status, "Progressing").getMessage()).contains("1/3 replicas updated");
  }

  @Test
  void aStatefulSetWhoseControllerLagsIsStillRollingOut() {
    var status = compute(Optional.of(sts(3, 3, true, false)), false, T0);
    assertCondition(status, "Ready", "True", "AllReplicasReady");
    assertCondition(status, "Progressing", "True", "RollingOut");
  }

  @Test
  void aChangeOfSizeIsProgressAndSaysWhatItWaitsFor() {
    compute(Optional.of(sts(3, 3, true, true)), false, T0);
    cluster.getMetadata().setGeneration(2L);
    cluster.getSpec().setReplicas(5);
    var starting = model(cluster).withMembership(new Membership(1, 3, 5, Membership.Step.STARTING));
    var status =
        ClusterStatusCalculator.compute(
            new ClusterStatusCalculator.Observation(
                cluster,
                starting,
                Optional.of(sts(3, 3, true, true)), // the StatefulSet still has 3 replicas
                false,
                null,
                T1,
                "waiting for the new pod demo-3 to be Ready"));
    assertCondition(status, "Ready", "False", "ReplicasNotReady");
    assertCondition(status, "Progressing", "True", "Scaling");
    assertThat(condition(status, "Progressing").getMessage())
        .isEqualTo(
            "3 -> 5 members: starting (epoch 1); waiting for the new pod demo-3 to be Ready");
    assertCondition(status, "Degraded", "False", "AsExpected");
    assertThat(status.getMembers()).as("the new pods are not members yet").hasSize(3);
    assertThat(status.getMembership()).isEqualTo(starting.membership());
  }

  @Test
  void aScaleBelowTheDefaultFromIsRefusedAndSaysSo() {
    compute(Optional.of(sts(3, 3, true, true)), false, T0);
    var status =
        ClusterStatusCalculator.compute(
            new ClusterStatusCalculator.Observation(
                cluster,
                model(cluster),
                Optional.of(sts(3, 3, true, true)),
                false,
                null,
                T1,
                "refused: 2 replicas is fewer than the default from (3); lower defaultFrom first"));
    assertCondition(status, "Degraded", "True", "ScaleRefused");
  }

  @Test
  void lastTransitionTimeMovesOnlyOnTransitions() {
    compute(Optional.of(sts(1, 3, true, true)), false, T0);
    var again = compute(Optional.of(sts(2, 3, true, true)), false, T1);
    assertThat(condition(again, "Ready").getLastTransitionTime()).isEqualTo(T0.toString());
    assertThat(condition(again, "Ready").getMessage()).isEqualTo("2/3 replicas ready");
    var ready = compute(Optional.of(sts(3, 3, true, true)), false, T1);
    assertThat(condition(ready, "Ready").getLastTransitionTime()).isEqualTo(T1.toString());
    assertThat(condition(ready, "Degraded").getLastTransitionTime()).isEqualTo(T0.toString());
    assertThat(ready.getConditions()).allMatch(c -> c.getObservedGeneration() == 1L);
  }

  @Test
  void pausedReportsTheAppliedStateAndSaysSo() {
    var applied = compute(Optional.of(sts(3, 3, true, true)), false, T0);
    cluster.getMetadata().setGeneration(2L);
    cluster.getMetadata().setAnnotations(Map.of(DhtCluster.PAUSE_ANNOTATION, "true"));
    cluster.getSpec().getThreads().setEventLoops(9);
    var status = compute(Optional.of(sts(3, 3, true, true)), true, T1);
    assertCondition(status, "Progressing", "False", "Paused");
    assertCondition(status, "Ready", "True", "AllReplicasReady");
    assertThat(status.getConfigHash()).isEqualTo(applied.getConfigHash());
    assertThat(status.getObservedGeneration()).isEqualTo(2L);
    assertThat(condition(status, "Progressing").getMessage())
        .contains("dht.dev/pause-reconciliation");
  }

  @Test
  void aFailureIsDegradedWithItsCause() {
    var failure = new RuntimeException("wrapper", new IllegalStateException("quota exceeded"));
    var status = compute(Optional.empty(), false, failure, T0);
    assertCondition(status, "Degraded", "True", "ReconcileFailed");
    assertThat(condition(status, "Degraded").getMessage())
        .isEqualTo("IllegalStateException: quota exceeded");
  }

  @Test
  void pausedAnnotationIsRead() {
    assertThat(cluster.isPaused()).isFalse();
    cluster.getMetadata().setAnnotations(Map.of(DhtCluster.PAUSE_ANNOTATION, "true"));
    assertThat(cluster.isPaused()).isTrue();
    cluster.getMetadata().setAnnotations(Map.of(DhtCluster.PAUSE_ANNOTATION, "false"));
    assertThat(cluster.isPaused()).isFalse();
  }
}
