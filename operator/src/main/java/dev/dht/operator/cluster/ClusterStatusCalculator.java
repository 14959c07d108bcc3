package dev.dht.operator.cluster;

import dev.dht.operator.policy.Refusal;
import dev.dht.operator.replacing.NodeReplacement;
import dev.dht.operator.replacing.ReplacementPlan;
import dev.dht.operator.rolling.RollPlan;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Turns what was observed (the StatefulSet, the pods and what their nodes report, the previous
 * status, pause, a failure, the decisions of this reconciliation) into the status to write. Pure,
 * so each rule is unit-tested.
 *
 * <ul>
 *   <li>observedGeneration: the generation whose spec was applied; not advanced while paused, when
 *       applying failed, or when the Secret is not the cluster's.
 *   <li>Ready: every desired replica passes its readiness probe.
 *   <li>Progressing: creating, scaling, changing the default ack/from, replacing a node on a new
 *       volume, or restarting pods created with other settings.
 *   <li>ConfigApplied: every node runs the current settings: its pod's revision, the published
 *       membership epoch, the default ack/from the members file gives; and these are the wanted
 *       ones (not while a change of them is still to take its steps).
 *   <li>Paused: the pause annotation is set; owned objects are left as they are.
 *   <li>RestartRequired: the operator's defaults changed and wait for permission to restart.
 *   <li>Degraded: reconciliation failed, the Secret is missing or not the cluster's, the chart's
 *       policy refuses the spec's image or a JVM option, a scale, restart or replacement is
 *       refused, or replicas stopped being ready after the cluster had been ready with nothing to
 *       explain it.
 * </ul>
 *
 * <p>Ack, From, members and revision show what the nodes run, not what the spec asks ({@link
 * RunningSettings}); the roll is {@link RollProgress}; the conditions are {@link HealthConditions}
 * and {@link SettingsConditions}, over {@link ConditionFacts}.
 */
final class ClusterStatusCalculator {
  static final String CONFIG_APPLIED = "ConfigApplied";
  static final String PAUSED = "Paused";
  static final String RESTART_REQUIRED = "RestartRequired";

  private ClusterStatusCalculator() {}

  /**
   * What was observed; {@code failure} is null unless reconciliation threw; {@code roll} is null
   * when none was decided (paused, or scaling); {@code operatorDefaults} are the operator's own;
   * {@code replacement} is null when none was decided (paused, nothing seen): the status keeps the
   * replacement it records; {@code refusal} is why the chart's policy refuses the spec (its image
   * or a JVM option), else null.
   */
  record Observation(
      DhtCluster cluster,
      ClusterModel model,
      Optional<StatefulSet> statefulSet,
      boolean paused,
      Exception failure,
      Instant now,
      String scaling,
      Seen seen,
      RollPlan.Decision roll,
      OperatorDefaults operatorDefaults,
      SecretState secret,
      ReplacementPlan.Decision replacement,
      Refusal refusal) {

    /** With a spec the policy allows. */
    Observation(
        DhtCluster cluster,
        ClusterModel model,
        Optional<StatefulSet> statefulSet,
        boolean paused,
        Exception failure,
        Instant now,
        String scaling,
        Seen seen,
        RollPlan.Decision roll,
        OperatorDefaults operatorDefaults,
        SecretState secret,
        ReplacementPlan.Decision replacement) {
      this(
          cluster,
          model,
          statefulSet,
          paused,
          failure,
          now,
          scaling,
          seen,
          roll,
          operatorDefaults,
          secret,
          replacement,
          null);
    }

    /** Without a replacement decided. */
    Observation(
        DhtCluster cluster,
        ClusterModel model,
        Optional<StatefulSet> statefulSet,
        boolean paused,
        Exception failure,
        Instant now,
        String scaling,
        Seen seen,
        RollPlan.Decision roll,
        OperatorDefaults operatorDefaults,
        SecretState secret) {
      this(
          cluster,
          model,
          statefulSet,
          paused,
          failure,
          now,
          scaling,
          seen,
          roll,
          operatorDefaults,
          secret,
          null);
    }

    /** The replacement to report: the one decided now, else the one the status records. */
    NodeReplacement currentReplacement() {
      if (replacement != null) {
        return replacement.current();
      }
      return cluster.getStatus() == null ? null : cluster.getStatus().getReplacement();
    }

    /** The pod whose replacement runs, else null. */
    String replacing() {
      var current = currentReplacement();
      return current != null && current.running() ? current.getPod() : null;
    }

    /** Without pods seen, a change of size or a roll under way. */
    Observation(
        DhtCluster cluster,
        ClusterModel model,
        Optional<StatefulSet> statefulSet,
        boolean paused,
        Exception failure,
        Instant now) {
      this(cluster, model, statefulSet, paused, failure, now, null);
    }

    /** Without pods seen or a roll under way. */
    Observation(
        DhtCluster cluster,
        ClusterModel model,
        Optional<StatefulSet> statefulSet,
        boolean paused,
        Exception failure,
        Instant now,
        String scaling) {
      this(
          cluster,
          model,
          statefulSet,
          paused,
          failure,
          now,
          scaling,
          Seen.NOTHING,
          null,
          model.defaults(),
          SecretState.OURS);
    }

    /**
     * Nothing was applied: paused, failed, refused for a Secret that is not the cluster's or for a
     * spec the policy does not allow.
     */
    boolean notApplied() {
      return paused || failure != null || secret == SecretState.NOT_OURS || refusal != null;
    }

    /**
     * The nodes are left as they are, on purpose: paused, or the spec is refused by the policy. The
     * StatefulSet, not the model, says how many pods there should be.
     */
    boolean nodesHeld() {
      return paused || refusal != null;
    }
  }

  static DhtClusterStatus compute(Observation in) {
    var model = in.model();
    var previous = Optional.ofNullable(in.cluster().getStatus());
    List<Condition> before = previous.map(DhtClusterStatus::getConditions).orElse(List.of());
    var rollout = Rollout.of(model, in.statefulSet(), in.nodesHeld(), in.seen());
    boolean keepApplied = in.nodesHeld() && previous.isPresent();

    var status = new DhtClusterStatus();
    Long applied = model.generation(); // a Long: the ternary below must not unbox a null
    status.setObservedGeneration(
        in.notApplied()
            ? previous.map(DhtClusterStatus::getObservedGeneration).orElse(null)
            : applied);
    status.setReplicas(rollout.current());
    status.setReadyReplicas(rollout.ready());
    status.setSelector(model.selector());
    status.setMembership(keepApplied ? previous.get().getMembership() : model.membership());
    status.setOperatorDefaults(
        keepApplied ? previous.get().getOperatorDefaults() : model.defaults());
    status.setPinnedDefaultFrom(
        previous.map(DhtClusterStatus::getPinnedDefaultFrom).orElse(model.defaultFrom()));
    status.setPinnedDefaultAck(
        previous.map(DhtClusterStatus::getPinnedDefaultAck).orElse(model.defaultAck()));
    status.setTransport(model.transport());
    RunningSettings.fill(in, previous, status);
    status.setRoll(keepApplied ? previous.get().getRoll() : RollProgress.of(in, previous));
    status.setReplacement(in.currentReplacement());
    status.setLastReplacement(
        in.replacement() != null && in.replacement().completed() != null
            ? in.replacement().completed()
            : previous.map(DhtClusterStatus::getLastReplacement).orElse(null));

    var facts = new ConditionFacts(in, before, rollout, status.getRoll());
    status.setConditions(
        List.of(
            HealthConditions.ready(facts),
            HealthConditions.progressing(facts),
            HealthConditions.degraded(facts),
            SettingsConditions.configApplied(facts),
            SettingsConditions.paused(facts),
            SettingsConditions.restartRequired(facts)));
    return status;
  }
}
