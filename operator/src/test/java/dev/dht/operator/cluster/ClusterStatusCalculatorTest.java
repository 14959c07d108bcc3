package dev.dht.operator.cluster;

import static dev.dht.operator.cluster.Clusters.cluster;
import static dev.dht.operator.cluster.Clusters.model;
import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.contract.MembersFile.Replication;
import dev.dht.operator.kube.Conditions;
import dev.dht.operator.policy.Refusal;
import dev.dht.operator.replacing.NodeReplacement;
import dev.dht.operator.replacing.ReplacementPlan;
import dev.dht.operator.rolling.PodRevision;
import dev.dht.operator.rolling.PodState;
import dev.dht.operator.rolling.RollPlan;
import dev.dht.operator.scaling.Membership;
import dev.dht.operator.scaling.NodeView;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ClusterStatusCalculatorTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final Instant T1 = Instant.parse("2026-01-01T00:05:00Z");

  private static final PodRevision OLDER = PodRevision.ofOlderOperator("0123456789abcdef");
  private static final Replication R23 = new Replication(2, 3);

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
    assertCondition(status, "ConfigApplied", "False", "Creating");
    assertCondition(status, "Paused", "False", "Reconciling");
    assertCondition(status, "RestartRequired", "False", "UpToDate");
    assertThat(status.getObservedGeneration()).isEqualTo(1L);
    assertThat(status.getSelector()).contains("app.kubernetes.io/instance=demo");
    assertThat(status.getMembership().getMembers()).isEqualTo(3);
    assertThat(status.getOperatorDefaults()).isEqualTo(model(cluster).defaults());
    // nothing runs yet, so nothing is reported as running
    assertThat(status.getMembers()).isEmpty();
    assertThat(status.getRevision()).isNull();
    assertThat(status.getDefaultAck()).isNull();
    assertThat(status.getDefaultFrom()).isNull();
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
  void aRollingRestartIsProgressingAndSaysWhatItDoes() {
    var old = model(cluster);
    compute(Optional.of(sts(3, 3, true, true)), false, T0);
    cluster.getMetadata().setGeneration(2L);
    cluster.getSpec().getThreads().setEventLoops(7); // a new revision
    var model = model(cluster);
    var seen = seen(model, 3, old.desiredRevision().revision(), true, 2, 3);
    var restart =
        new RollPlan.Restart(
            List.of("demo-0", "demo-1", "demo-2"),
            seen.pods().get(2),
            "created with other settings");
    var status = observe(model, Optional.of(sts(3, 3, true, true)), seen, restart, T1);
    assertCondition(status, "Progressing", "True", "RollingRestart");
    assertThat(condition(status, "Progressing").getMessage())
        .isEqualTo(
            "0/3 pods run the current settings; restarting demo-2: created with other settings");
    assertThat(status.getRoll().getRestarting()).isEqualTo("demo-2");
    assertCondition(status, "ConfigApplied", "False", "Applying");
    assertThat(status.getRevision())
        .as("what the pods run")
        .isEqualTo(old.desiredRevision().revision().id());

    // the restarted pod is not Ready yet: that is the roll, not a degradation
    var back = seen(model, 3, old.desiredRevision().revision(), true, 2, 3);
    var pods = new ArrayList<>(back.pods());
    pods.set(2, new PodState(2, "demo-2", true, false, false, model.desiredRevision().revision()));
    back = new Seen(pods, back.nodes(), Map.of(), Map.of());
    var waiting = new RollPlan.Wait(List.of("demo-0", "demo-1"), "waiting for demo-2 to be Ready");
    status = observe(model, Optional.of(sts(2, 1, false, true)), back, waiting, T1);
    assertCondition(status, "Progressing", "True", "RollingRestart");
    assertCondition(status, "Degraded", "False", "AsExpected");
    assertThat(status.getRoll().getRestarting()).isEqualTo("demo-2");
    assertThat(status.getRevision()).as("the pods differ").isNull();
  }

  @Test
  void aRestartThatWouldBreakTheQuorumIsRefusedAndSaysSo() {
    compute(Optional.of(sts(3, 3, true, true)), false, T0);
    var model = model(cluster);
    var seen = seen(model, 3, PodRevision.parse("inputs=0ther000"), true, 3, 3);
    var refuse = new RollPlan.Refuse(List.of("demo-0"), "restarting any node would ...");
    var status = observe(model, Optional.of(sts(3, 3, true, true)), seen, refuse, T1);
    assertCondition(status, "Degraded", "True", "RestartRefused");
    assertCondition(status, "Progressing", "False", "RestartRefused");
  }

  @Test
  void theStatusShowsWhatTheNodesRunAndWhenASettingReachedThemAll() {
    compute(Optional.of(sts(3, 3, true, true)), false, T0);
    cluster.getMetadata().setGeneration(2L);
    var replication = new DhtClusterSpec.Replication();
    replication.setDefaultAck(1);
    cluster.getSpec().setReplication(replication);
    // the change of ack/from took its steps: the members file gives 1/3
    var model = model(cluster).withMembership(Membership.stable(2, 3, new Replication(1, 3)));
    var status =
        observe(
            model,
            Optional.of(sts(3, 3, true, true)),
            seen(model, 3, model.desiredRevision().revision(), true, 2, 3),
            new RollPlan.Done(List.of()),
            T1);
    assertThat(status.getDefaultAck()).as("the nodes still serve 2").isEqualTo(2);
    assertCondition(status, "ConfigApplied", "False", "Applying");
    assertThat(condition(status, "ConfigApplied").getMessage())
        .isEqualTo(
            "0/3 nodes run the current settings; demo-0: ack/from 2/3; demo-1: ack/from 2/3;"
                + " demo-2: ack/from 2/3");
    assertThat(status.getNodes()).hasSize(3);
    assertThat(status.getNodes().getFirst().getDefaultAck()).isEqualTo(2);

    status =
        observe(
            model,
            Optional.of(sts(3, 3, true, true)),
            seen(model, 3, model.desiredRevision().revision(), true, 1, 3),
            new RollPlan.Done(List.of()),
            T1);
    assertThat(status.getDefaultAck()).isEqualTo(1);
    assertThat(status.getMembers()).hasSize(3);
    assertThat(status.getMemberCount()).isEqualTo(3);
    assertThat(status.getRevision()).isEqualTo(model.desiredRevision().revision().id());
    assertCondition(status, "ConfigApplied", "True", "Applied");
    assertThat(status.getObservedGeneration()).isEqualTo(2L);
  }

  @Test
  void newOperatorDefaultsWaitForPermissionAndSaySo() {
    var running = OperatorDefaults.current("local/dht-node:1");
    cluster.setStatus(new DhtClusterStatus());
    cluster.getStatus().setOperatorDefaults(running);
    cluster.getStatus().setMembership(Membership.stable(1, 3, R23));
    var newer = OperatorDefaults.current("local/dht-node:2");
    var model = ClusterModel.of(cluster, UpgradeGate.accepted(cluster, newer));
    assertThat(model.image()).as("the nodes keep their image").isEqualTo("local/dht-node:1");
    var status =
        ClusterStatusCalculator.compute(
            new ClusterStatusCalculator.Observation(
                cluster,
                model,
                Optional.of(sts(3, 3, true, true)),
                false,
                null,
                T1,
                null,
                seen(model, 3, model.desiredRevision().revision(), true, 2, 3),
                new RollPlan.Done(List.of()),
                newer,
                SecretState.OURS));
    assertCondition(status, "RestartRequired", "True", "OperatorDefaultsChanged");
    assertThat(condition(status, "RestartRequired").getMessage())
        .contains("image local/dht-node:1 -> local/dht-node:2", "dht.dev/allow-restart=once");
    assertThat(status.getOperatorDefaults()).isEqualTo(running);

    cluster.getMetadata().setAnnotations(Map.of(UpgradeGate.ALLOW_ANNOTATION, "once"));
    var allowed = ClusterModel.of(cluster, UpgradeGate.accepted(cluster, newer));
    assertThat(allowed.image()).isEqualTo("local/dht-node:2");
    assertThat(allowed.desiredRevision()).isNotEqualTo(model.desiredRevision());
    assertThat(UpgradeGate.taken(cluster, newer))
        .as("the permission stays until a status records the new defaults")
        .isFalse();
    cluster.getStatus().setOperatorDefaults(newer);
    assertThat(UpgradeGate.taken(cluster, newer)).isTrue();
    cluster.getMetadata().setAnnotations(Map.of());
    cluster.getSpec().setOperatorUpgrades(DhtClusterSpec.OperatorUpgrades.Automatic);
    assertThat(ClusterModel.of(cluster, UpgradeGate.accepted(cluster, newer)).image())
        .isEqualTo("local/dht-node:2");
  }

  @Test
  void aMissingSecretIsDegradedAndSaysWhy() {
    compute(Optional.of(sts(3, 3, true, true)), false, T0);
    var model = model(cluster);
    var status =
        ClusterStatusCalculator.compute(
            new ClusterStatusCalculator.Observation(
                cluster,
                model,
                Optional.of(sts(3, 3, true, true)),
                false,
                null,
                T1,
                null,
                Seen.NOTHING,
                null,
                model.defaults(),
                SecretState.MISSING));
    assertCondition(status, "Degraded", "True", "SecretMissing");
    assertThat(condition(status, "Degraded").getMessage()).contains("demo-secret", "restore");
  }

  /**
   * Someone's Secret of the cluster's Secret name: nothing was applied, and the status says why.
   */
  @Test
  void aSecretThatIsNotTheClustersIsDegradedAndNothingCountsAsApplied() {
    var model = model(cluster);
    var status =
        ClusterStatusCalculator.compute(
            new ClusterStatusCalculator.Observation(
                cluster,
                model,
                Optional.empty(),
                false,
                null,
                T1,
                null,
                Seen.NOTHING,
                null,
                model.defaults(),
                SecretState.NOT_OURS));
    assertCondition(status, "Degraded", "True", "SecretNotOwned");
    assertCondition(status, "Progressing", "False", "SecretNotOwned");
    assertThat(condition(status, "Degraded").getMessage())
        .contains("demo-secret", "not made by the operator", "not adopted");
    assertThat(status.getObservedGeneration()).as("the spec was not applied").isNull();
  }

  /**
   * A spec.image the chart's policy refuses, on a running cluster: nothing was applied, the nodes
   * serve on, and every condition that counts says why (Ready too: a load test must not start).
   */
  @Test
  void aSpecThePolicyRefusesIsNotReadyDegradedAndNothingCountsAsApplied() {
    var applied = compute(Optional.of(sts(3, 3, true, true)), false, T0);
    cluster.getMetadata().setGeneration(2L);
    cluster.getSpec().setImage("evil.example/x:1");
    var model = model(cluster);
    var refusal =
        new Refusal(
            "ImageNotAllowed", "spec.image 'evil.example/x:1' is not allowed by the policy");
    var status =
        ClusterStatusCalculator.compute(
            new ClusterStatusCalculator.Observation(
                cluster,
                model,
                Optional.of(sts(3, 3, true, true)),
                false,
                null,
                T1,
                null,
                Seen.NOTHING,
                null,
                model.defaults(),
                SecretState.OURS,
                null,
                refusal));
    cluster.setStatus(status);
    assertCondition(status, "Ready", "False", "ImageNotAllowed");
    assertCondition(status, "Progressing", "False", "ImageNotAllowed");
    assertCondition(status, "Degraded", "True", "ImageNotAllowed");
    assertThat(condition(status, "Ready").getMessage())
        .contains("evil.example/x:1", "3/3 replicas ready");
    assertThat(condition(status, "Degraded").getMessage())
        .contains("evil.example/x:1", "No StatefulSet is created or changed");
    assertThat(status.getObservedGeneration()).as("the spec was not applied").isEqualTo(1L);
    assertThat(status.getOperatorDefaults()).isEqualTo(applied.getOperatorDefaults());
    assertThat(ClusterEvents.between(applied.getConditions(), status.getConditions()))
        .extracting(ClusterEvents.Transition::type, ClusterEvents.Transition::reason)
        .contains(org.assertj.core.groups.Tuple.tuple("Warning", "ImageNotAllowed"));
  }

  @Test
  void anEditWhileDegradedKeepsItDegraded() {
    compute(Optional.of(sts(3, 3, true, true)), false, T0);
    compute(Optional.of(sts(2, 3, true, true)), false, T1);
    cluster.getMetadata().setGeneration(2L);
    cluster.getSpec().getLimits().setMaxInflight(100);
    var model = model(cluster);
    var pods = new ArrayList<PodState>();
    pods.add(new PodState(0, "demo-0", true, false, false, OLDER));
    pods.add(new PodState(1, "demo-1", true, true, false, OLDER));
    pods.add(new PodState(2, "demo-2", true, true, false, OLDER));
    var seen = new Seen(pods, Map.of(), Map.of(), Map.of());
    var status =
        observe(
            model,
            Optional.of(sts(2, 3, true, true)),
            seen,
            new RollPlan.Restart(
                List.of("demo-0", "demo-1", "demo-2"), pods.getFirst(), "not Ready"),
            T1);
    assertCondition(status, "Degraded", "True", "ReplicasNotReady");
    assertThat(ClusterEvents.between(List.of(), status.getConditions()))
        .extracting(ClusterEvents.Transition::reason)
        .doesNotContain("Recovered");
  }

  @Test
  void aFailedApplyDoesNotAdvanceTheObservedGeneration() {
    compute(Optional.of(sts(3, 3, true, true)), false, T0);
    cluster.getMetadata().setGeneration(2L);
    var status = compute(Optional.of(sts(3, 3, true, true)), false, new RuntimeException("x"), T1);
    assertThat(status.getObservedGeneration()).isEqualTo(1L);
  }

  private DhtClusterStatus observe(
      ClusterModel model,
      Optional<StatefulSet> sts,
      Seen seen,
      RollPlan.Decision roll,
      Instant now) {
    var status =
        ClusterStatusCalculator.compute(
            new ClusterStatusCalculator.Observation(
                cluster,
                model,
                sts,
                false,
                null,
                now,
                null,
                seen,
                roll,
                model.defaults(),
                SecretState.OURS));
    cluster.setStatus(status);
    return status;
  }

  /** n pods of the given revision and readiness whose nodes run the model's epoch and ack/from. */
  private static Seen seen(
      ClusterModel model, int n, PodRevision revision, boolean ready, int ack, int from) {
    var pods = new ArrayList<PodState>();
    Map<Integer, NodeView> nodes = new TreeMap<>();
    for (int i = 0; i < n; i++) {
      pods.add(new PodState(i, "demo-" + i, true, ready, false, revision));
      nodes.put(
          i,
          new NodeView(
              i,
              ready,
              model.membership().getEpoch(),
              -1,
              false,
              -1,
              false,
              new NodeView.Report(0, ack, from, 100, 1000)));
    }
    return new Seen(pods, nodes, Map.of(), Map.of());
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
    var starting =
        model(cluster)
            .withMembership(
                Membership.stable(1, 3, R23).toBuilder()
                    .target(5)
                    .step(Membership.Step.STARTING)
                    .build());
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
    assertThat(status.getMembership()).isEqualTo(starting.membership());
  }

  @Test
  void aChangeOfTheDefaultAckFromIsProgressAndNotYetApplied() {
    compute(Optional.of(sts(3, 3, true, true)), false, T0);
    cluster.getMetadata().setGeneration(2L);
    cluster.getSpec().getReplication().setDefaultAck(3);
    var streaming =
        model(cluster)
            .withMembership(
                Membership.stable(1, 3, R23).toBuilder()
                    .epoch(2)
                    .step(Membership.Step.STREAMING)
                    .targetAck(3)
                    .build());
    var status =
        ClusterStatusCalculator.compute(
            new ClusterStatusCalculator.Observation(
                cluster,
                streaming,
                Optional.of(sts(3, 3, true, true)),
                false,
                null,
                T1,
                "waiting for demo-0 to stream the keys it will own",
                seen(streaming, 3, streaming.desiredRevision().revision(), true, 2, 3),
                null,
                streaming.defaults(),
                SecretState.OURS));
    assertCondition(status, "Progressing", "True", "ChangingReplication");
    assertThat(condition(status, "Progressing").getMessage())
        .isEqualTo(
            "changing the default ack/from 2/3 -> 3/3: streaming (epoch 2); waiting for demo-0 to"
                + " stream the keys it will own");
    assertCondition(status, "ConfigApplied", "False", "ChangingReplication");
    assertThat(condition(status, "ConfigApplied").getMessage())
        .as("the nodes serve what the members file gives, but not yet what the spec asks")
        .isEqualTo(
            "all 3 nodes serve the default ack/from 2/3; 3/3 takes the steps of a change of"
                + " membership first (see Progressing)");
    assertCondition(status, "Degraded", "False", "AsExpected");
    assertThat(status.getDefaultAck()).isEqualTo(2);
    assertThat(status.getMembership()).isEqualTo(streaming.membership());
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

  /** The status of a reconciliation that decided {@code replacement}, all 3 pods up but demo-1. */
  private DhtClusterStatus replacing(ReplacementPlan.Decision replacement, Instant now) {
    var model = model(cluster);
    var seen = seen(model, 3, model.desiredRevision().revision(), true, 2, 3);
    var pods = new ArrayList<>(seen.pods());
    pods.set(1, PodState.missing(1, "demo-1"));
    var status =
        ClusterStatusCalculator.compute(
            new ClusterStatusCalculator.Observation(
                cluster,
                model,
                Optional.of(sts(2, 3, true, true)),
                false,
                null,
                now,
                null,
                new Seen(pods, seen.nodes(), Map.of(), Map.of()),
                new RollPlan.Done(List.of()),
                model.defaults(),
                SecretState.OURS,
                replacement));
    cluster.setStatus(status);
    return status;
  }

  private static NodeReplacement replacement(NodeReplacement.Phase phase, String message) {
    return NodeReplacement.builder()
        .pod("demo-1")
        .phase(phase)
        .message(message)
        .startedAt(T0.toString())
        .build();
  }

  private static ReplacementPlan.Decision decided(NodeReplacement current) {
    return new ReplacementPlan.Decision(current, null, false, false, false, List.of());
  }

  @Test
  void aReplacementIsProgressNotDegradedAndKeptUntilDone() {
    compute(Optional.of(sts(3, 3, true, true)), false, T0);
    var recreating =
        replacement(
            NodeReplacement.Phase.Recreating, "waiting for the old claim data-demo-1 to go");
    var status = replacing(decided(recreating), T0);
    assertCondition(status, "Progressing", "True", "Replacing");
    assertThat(condition(status, "Progressing").getMessage())
        .isEqualTo("replacing demo-1: waiting for the old claim data-demo-1 to go");
    assertCondition(status, "Degraded", "False", "AsExpected");
    assertThat(status.getReplacement()).isEqualTo(recreating);
    assertThat(ClusterEvents.between(List.of(), status.getConditions()))
        .as("one event per step of it")
        .contains(
            new ClusterEvents.Transition(
                "Normal",
                "Replacing",
                "replacing demo-1: waiting for the old claim data-demo-1 to go"));

    // a reconciliation that decides nothing (nothing seen, paused) keeps it
    var kept = replacing(null, T1);
    assertThat(kept.getReplacement()).isEqualTo(recreating);

    cluster.getSpec().setReplicas(5);
    assertThat(condition(replacing(decided(recreating), T1), "Progressing").getMessage())
        .endsWith("; the change to 5 members waits for it");
    cluster.getSpec().setReplicas(3);

    var done = recreating.toBuilder().phase(NodeReplacement.Phase.Done).message("replaced").build();
    var finished =
        replacing(new ReplacementPlan.Decision(null, done, false, false, false, List.of()), T1);
    assertThat(finished.getReplacement()).isNull();
    assertThat(finished.getLastReplacement()).isEqualTo(done);
    assertThat(replacing(decided(null), T1).getLastReplacement()).as("kept").isEqualTo(done);
  }

  @Test
  void anotherPodDownDuringAReplacementIsDegraded() {
    compute(Optional.of(sts(3, 3, true, true)), false, T0);
    var model = model(cluster);
    var pods = new ArrayList<PodState>();
    pods.add(new PodState(0, "demo-0", true, false, false, model.desiredRevision().revision()));
    pods.add(PodState.missing(1, "demo-1"));
    pods.add(new PodState(2, "demo-2", true, true, false, model.desiredRevision().revision()));
    var status =
        ClusterStatusCalculator.compute(
            new ClusterStatusCalculator.Observation(
                cluster,
                model,
                Optional.of(sts(1, 3, true, true)),
                false,
                null,
                T1,
                null,
                new Seen(pods, Map.of(), Map.of(), Map.of()),
                new RollPlan.Done(List.of()),
                model.defaults(),
                SecretState.OURS,
                decided(
                    replacement(NodeReplacement.Phase.Stopping, "waiting for demo-1 to stop"))));
    assertCondition(status, "Degraded", "True", "ReplicasNotReady");
  }

  @Test
  void aRefusedReplacementIsDegradedAndSaysWhy() {
    compute(Optional.of(sts(3, 3, true, true)), false, T0);
    var refused =
        NodeReplacement.builder()
            .pod("demo-7")
            .phase(NodeReplacement.Phase.Refused)
            .message("dht.dev/replace=demo-7 is refused: demo-7 is not a member")
            .build();
    var status = replacing(decided(refused), T1);
    assertCondition(status, "Degraded", "True", "ReplaceRefused");
    assertThat(condition(status, "Degraded").getMessage())
        .isEqualTo("dht.dev/replace=demo-7 is refused: demo-7 is not a member");
    assertThat(condition(status, "Progressing").getReason()).isNotEqualTo("Replacing");
    assertThat(ClusterEvents.between(List.of(), status.getConditions()))
        .contains(
            new ClusterEvents.Transition(
                "Warning",
                "ReplaceRefused",
                "degraded: dht.dev/replace=demo-7 is refused: demo-7 is not a member"));
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
    assertThat(status.getRevision()).isEqualTo(applied.getRevision());
    assertThat(status.getObservedGeneration()).as("not applied").isEqualTo(1L);
    assertCondition(status, "Paused", "True", "ReconciliationPaused");
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
