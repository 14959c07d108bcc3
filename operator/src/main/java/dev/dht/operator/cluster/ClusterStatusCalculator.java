package dev.dht.operator.cluster;

import static dev.dht.operator.kube.Conditions.DEGRADED;
import static dev.dht.operator.kube.Conditions.PROGRESSING;
import static dev.dht.operator.kube.Conditions.READY;

import dev.dht.operator.kube.Conditions;
import dev.dht.operator.rolling.DesiredRevision;
import dev.dht.operator.rolling.PodState;
import dev.dht.operator.rolling.RollPlan;
import dev.dht.operator.scaling.Membership;
import dev.dht.operator.scaling.NodeView;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * Turns what was observed (the StatefulSet, the pods and what their nodes report, the previous
 * status, pause, a failure, the decisions of this reconciliation) into the status to write. Pure,
 * so each rule is unit-tested.
 *
 * <ul>
 *   <li>observedGeneration: the generation whose spec was applied; not advanced while paused or
 *       when applying failed.
 *   <li>Ready: every desired replica passes its readiness probe.
 *   <li>Progressing: creating, scaling, or restarting pods created with other settings.
 *   <li>ConfigApplied: every node runs the current settings: its pod's revision, the published
 *       membership epoch, the default ack/from.
 *   <li>Paused: the pause annotation is set; owned objects are left as they are.
 *   <li>RestartRequired: the operator's defaults changed and wait for permission to restart.
 *   <li>Degraded: reconciliation failed, the Secret is missing, a scale or restart is refused, or
 *       replicas stopped being ready after the cluster had been ready with nothing to explain it.
 * </ul>
 *
 * <p>Ack, From, members and revision show what the nodes run, not what the spec asks.
 */
final class ClusterStatusCalculator {
  static final int MAX_MESSAGE = 1024;
  static final String CONFIG_APPLIED = "ConfigApplied";
  static final String PAUSED = "Paused";
  static final String RESTART_REQUIRED = "RestartRequired";

  private ClusterStatusCalculator() {}

  /**
   * What was observed; {@code failure} is null unless reconciliation threw; {@code roll} is null
   * when none was decided (paused, or scaling); {@code operatorDefaults} are the operator's own.
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
      boolean secretMissing) {

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
          false);
    }
  }

  static DhtClusterStatus compute(Observation in) {
    var model = in.model();
    var previous = Optional.ofNullable(in.cluster().getStatus());
    List<Condition> before = previous.map(DhtClusterStatus::getConditions).orElse(List.of());
    var rollout = Rollout.of(model, in.statefulSet(), in.paused(), in.seen());
    boolean keepApplied = in.paused() && previous.isPresent();

    var status = new DhtClusterStatus();
    Long applied = model.generation(); // a Long: the ternary below must not unbox a null
    status.setObservedGeneration(
        in.paused() || in.failure() != null
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
    running(in, previous, status);
    status.setNodes(
        in.seen().pods().stream()
            .map(p ->
                ObservedNode.of(
                    p, in.seen().images().get(p.ordinal()), in.seen().node(p.ordinal())))
            .toList());
    status.setRoll(keepApplied ? previous.get().getRoll() : roll(in, previous));

    var facts = new Facts(in, before, rollout, status.getRoll(), wasReady(before));
    status.setConditions(
        List.of(
            ready(facts),
            progressing(facts),
            degraded(facts),
            configApplied(facts),
            paused(facts),
            restartRequired(facts)));
    return status;
  }

  /**
   * What the conditions are computed from: the observation, the conditions before, the
   * StatefulSet's rollout, the roll's state as this status reports it, and whether the cluster was
   * ready before (or became not ready from ready).
   */
  private record Facts(
      Observation in, List<Condition> before, Rollout rollout, RollStatus roll, boolean wasReady) {
    Condition cond(String type, boolean value, String reason, String message) {
      return Conditions.next(
          before, type, value, reason, message, in.model().generation(), in.now());
    }

    String readyText() {
      return rollout.ready() + "/" + rollout.desired() + " replicas ready";
    }

    boolean restartRefused() {
      return in.roll() instanceof RollPlan.Refuse;
    }
  }

  private static boolean wasReady(List<Condition> before) {
    return Conditions.isTrue(before, READY)
        || Conditions.find(before, DEGRADED)
            .filter(c -> Conditions.TRUE.equals(c.getStatus()))
            .map(c -> "ReplicasNotReady".equals(c.getReason()))
            .orElse(false);
  }

  private static Condition ready(Facts f) {
    if (!f.rollout().exists()) {
      return f.cond(READY, false, "Creating", "the StatefulSet does not exist yet");
    }
    if (f.rollout().allReady()) {
      return f.cond(READY, true, "AllReplicasReady", f.readyText());
    }
    return f.cond(READY, false, "ReplicasNotReady", f.readyText());
  }

  private static Condition progressing(Facts f) {
    var in = f.in();
    var model = in.model();
    var rollout = f.rollout();
    if (in.paused()) {
      return f.cond(
          PROGRESSING,
          false,
          "Paused",
          "reconciliation paused by annotation "
              + DhtCluster.PAUSE_ANNOTATION
              + "=true; owned resources are left unchanged");
    }
    if (!rollout.exists()) {
      return f.cond(PROGRESSING, true, "Creating", "creating the nodes");
    }
    if (model.membership().getStep() != Membership.Step.STABLE) {
      var m = model.membership();
      return f.cond(
          PROGRESSING,
          true,
          "Scaling",
          m.getMembers()
              + " -> "
              + m.getTarget()
              + " members: "
              + m.getStep().name().toLowerCase(Locale.ROOT).replace('_', ' ')
              + " (epoch "
              + m.getEpoch()
              + ")"
              + (in.scaling() == null ? "" : "; " + in.scaling()));
    }
    if (f.restartRefused()) {
      return f.cond(PROGRESSING, false, "RestartRefused", f.roll().getMessage());
    }
    if (f.roll() != null) {
      return f.cond(PROGRESSING, true, "RollingRestart", rollText(f));
    }
    if (!rollout.rolledOut()) {
      return f.cond(
          PROGRESSING,
          true,
          "RollingOut",
          rollout.updated()
              + "/"
              + rollout.desired()
              + " replicas updated to revision "
              + model.desiredRevision().revision().id());
    }
    if (!rollout.allReady() && !f.wasReady()) {
      return f.cond(PROGRESSING, true, "WaitingForReplicas", f.readyText());
    }
    return f.cond(PROGRESSING, false, "RolloutComplete", "all replicas are up to date");
  }

  private static Condition degraded(Facts f) {
    var in = f.in();
    if (in.failure() != null) {
      return f.cond(DEGRADED, true, "ReconcileFailed", describe(in.failure()));
    }
    if (in.secretMissing()) {
      return f.cond(
          DEGRADED,
          true,
          "SecretMissing",
          "the Secret "
              + in.model().secretName()
              + " is missing; it is not generated again, since nodes that restart with another"
              + " secret would be refused by their peers: restore it (README: cluster secret)");
    }
    if (in.scaling() != null && in.scaling().startsWith("refused")) {
      return f.cond(DEGRADED, true, "ScaleRefused", in.scaling());
    }
    if (f.restartRefused()) {
      return f.cond(DEGRADED, true, "RestartRefused", f.roll().getMessage());
    }
    if (unexplainedNotReady(f)) {
      return f.cond(DEGRADED, true, "ReplicasNotReady", f.readyText());
    }
    return f.cond(DEGRADED, false, "AsExpected", "no problem observed");
  }

  private static Condition paused(Facts f) {
    return f.in().paused()
        ? f.cond(
            PAUSED,
            true,
            "ReconciliationPaused",
            "annotation " + DhtCluster.PAUSE_ANNOTATION + "=true")
        : f.cond(PAUSED, false, "Reconciling", "reconciliation runs");
  }

  /** Ack, from, members and revision as the nodes run them; kept from before while unknown. */
  private static void running(
      Observation in, Optional<DhtClusterStatus> previous, DhtClusterStatus status) {
    var model = in.model();
    List<NodeView> answered =
        in.seen().nodes().values().stream().filter(NodeView::answered).toList();
    status.setDefaultAck(
        agreed(answered.stream().map(v -> v.report().defaultAck()).toList())
            .orElse(previous.map(DhtClusterStatus::getDefaultAck).orElse(null)));
    status.setDefaultFrom(
        agreed(answered.stream().map(v -> v.report().defaultFrom()).toList())
            .orElse(previous.map(DhtClusterStatus::getDefaultFrom).orElse(null)));
    boolean publishedReached =
        !answered.isEmpty()
            && answered.stream().allMatch(v -> v.epoch() == model.membership().getEpoch());
    if (publishedReached) {
      status.setMembers(model.members());
      status.setMemberCount(model.membership().nodes());
    } else {
      status.setMembers(previous.map(DhtClusterStatus::getMembers).orElse(List.of()));
      status.setMemberCount(previous.map(DhtClusterStatus::getMemberCount).orElse(null));
    }
    List<String> revisions =
        in.seen().pods().stream()
            .filter(PodState::exists)
            .map(p -> p.revision() == null ? null : p.revision().id())
            .toList();
    if (revisions.isEmpty()) {
      status.setRevision(previous.map(DhtClusterStatus::getRevision).orElse(null));
    } else {
      status.setRevision(agreed(revisions).orElse(null));
    }
  }

  /** The value every element has; empty for none or several (or an unknown one). */
  private static <T> Optional<T> agreed(List<T> values) {
    if (values.isEmpty() || values.stream().distinct().count() != 1) {
      return Optional.empty();
    }
    T value = values.getFirst();
    return value == null || Objects.equals(value, -1) ? Optional.empty() : Optional.of(value);
  }

  /** The roll's state: what is outdated, the pod restarted last until it is back, and why. */
  private static RollStatus roll(Observation in, Optional<DhtClusterStatus> previous) {
    String restarting = null;
    if (in.roll() instanceof RollPlan.Restart r && r.pod().up()) {
      restarting = r.pod().name();
    } else {
      String earlier =
          previous.map(DhtClusterStatus::getRoll).map(RollStatus::getRestarting).orElse(null);
      // back in full: Ready, and no node holds hints or streams for it (or anyone) any more
      boolean stillBack =
          earlier != null
              && (in.seen().pods().stream()
                      .filter(p -> p.name().equals(earlier))
                      .anyMatch(p -> !p.up())
                  || in.seen().pods().stream()
                      .anyMatch(p -> p.exists() && !in.seen().node(p.ordinal()).caughtUp()));
      restarting = stillBack ? earlier : null;
    }
    List<String> outdated = in.roll() == null ? List.of() : in.roll().outdated();
    if (outdated.isEmpty() && restarting == null) {
      return null;
    }
    String message =
        switch (in.roll()) {
          case RollPlan.Restart r -> "restarting " + r.pod().name() + ": " + r.reason();
          case RollPlan.Wait w -> w.why();
          case RollPlan.Refuse f -> f.why();
          case RollPlan.Done d -> "waiting for " + restarting + " to be Ready and caught up";
          case null -> "waiting for " + restarting + " to be Ready and caught up";
        };
    return new RollStatus(outdated, restarting, message);
  }

  private static String rollText(Facts f) {
    int outdated = f.roll().getOutdated().size();
    int pods = f.in().model().pods();
    return (pods - outdated)
        + "/"
        + pods
        + " pods run the current settings; "
        + f.roll().getMessage();
  }

  /**
   * Replicas are not ready although the cluster was, no change of size explains it, and it is not
   * (only) the pod the roller restarted.
   */
  private static boolean unexplainedNotReady(Facts f) {
    var in = f.in();
    var rollout = f.rollout();
    var membership = in.model().membership();
    if (!rollout.exists()
        || rollout.allReady()
        || !f.wasReady()
        || membership.getStep() != Membership.Step.STABLE
        || membership.getMembers() != in.model().replicas()) {
      return false;
    }
    String restarting = f.roll() == null ? null : f.roll().getRestarting();
    if (restarting == null) {
      return true;
    }
    if (!in.seen().any()) {
      return rollout.desired() - rollout.ready() > 1;
    }
    return in.seen().pods().stream()
        .filter(p -> p.ordinal() < rollout.desired())
        .anyMatch(p -> !p.up() && !p.name().equals(restarting));
  }

  /** Whether every node runs the current settings, and which do not. */
  private static Condition configApplied(Facts f) {
    var in = f.in();
    var model = in.model();
    if (!f.rollout().exists()) {
      return f.cond(CONFIG_APPLIED, false, "Creating", "no node runs yet");
    }
    if (!in.seen().any()) {
      return Conditions.next(
          f.before(),
          CONFIG_APPLIED,
          Conditions.UNKNOWN,
          "NotObserved",
          "the nodes were not observed",
          model.generation(),
          in.now());
    }
    var desired = model.desiredRevision();
    var behind = new ArrayList<String>();
    for (int i = 0; i < model.pods(); i++) {
      String name = model.podName(i);
      var pod = in.seen().pod(i);
      NodeView node = in.seen().node(i);
      if (pod.isEmpty() || !pod.get().exists()) {
        behind.add(name + ": no pod");
      } else if (!desired.runBy(pod.get().revision())) {
        behind.add(name + ": other " + desired.changesFor(pod.get().revision()));
      } else if (!node.answered()) {
        behind.add(name + ": not answering");
      } else if (node.epoch() != model.membership().getEpoch()) {
        behind.add(name + ": membership epoch " + node.epoch());
      } else if (node.report().defaultAck() != model.defaultAck()
          || node.report().defaultFrom() != model.defaultFrom()) {
        behind.add(
            name + ": ack/from " + node.report().defaultAck() + "/" + node.report().defaultFrom());
      }
    }
    if (behind.isEmpty()) {
      return f.cond(
          CONFIG_APPLIED,
          true,
          "Applied",
          "all "
              + model.pods()
              + " nodes run the current settings, membership epoch "
              + model.membership().getEpoch()
              + ", ack/from "
              + model.defaultAck()
              + "/"
              + model.defaultFrom());
    }
    String waiting =
        (model.pods() - behind.size())
            + "/"
            + model.pods()
            + " nodes run the current settings; "
            + String.join("; ", behind.subList(0, Math.min(5, behind.size())))
            + (behind.size() > 5 ? "; ..." : "");
    return f.cond(CONFIG_APPLIED, false, in.paused() ? "Paused" : "Applying", waiting);
  }

  private static Condition restartRequired(Facts f) {
    var in = f.in();
    var given = in.model().defaults();
    var current = in.operatorDefaults();
    if (current == null || current.equals(given)) {
      return f.cond(RESTART_REQUIRED, false, "UpToDate", "the nodes get the operator's defaults");
    }
    return f.cond(
        RESTART_REQUIRED,
        true,
        "OperatorDefaultsChanged",
        "the operator's defaults changed ("
            + given.differences(current)
            + "); the nodes keep theirs until a restart is allowed: kubectl annotate dhtcluster "
            + in.model().name()
            + " "
            + UpgradeGate.ALLOW_ANNOTATION
            + "=once (or set spec.operatorUpgrades: Automatic)");
  }

  static String describe(Exception failure) {
    Throwable root = failure;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String text = root.getClass().getSimpleName() + ": " + root.getMessage();
    return text.length() <= MAX_MESSAGE ? text : text.substring(0, MAX_MESSAGE);
  }

  /** The StatefulSet's progress towards the model (or towards its own spec while paused). */
  record Rollout(
      boolean exists, int desired, int current, int ready, int updated, boolean rolledOut) {

    boolean allReady() {
      return exists && ready >= desired;
    }

    static Rollout of(ClusterModel model, Optional<StatefulSet> observed, boolean paused) {
      return of(model, observed, paused, Seen.NOTHING);
    }

    /**
     * Rolled out: the controller saw the latest StatefulSet, it asks for the model's pods with the
     * model's revision, and every pod seen runs that revision (the pods are restarted by the
     * roller, so the StatefulSet controller's own revisions may differ).
     */
    static Rollout of(
        ClusterModel model, Optional<StatefulSet> observed, boolean paused, Seen seen) {
      if (observed.isEmpty()) {
        return new Rollout(false, model.pods(), 0, 0, 0, false);
      }
      var sts = observed.get();
      var spec = sts.getSpec();
      var st = sts.getStatus();
      int specReplicas = orZero(spec.getReplicas());
      int desired = paused ? specReplicas : model.pods();
      int current = st == null ? 0 : orZero(st.getReplicas());
      int ready = st == null ? 0 : orZero(st.getReadyReplicas());
      var desiredRevision = model.desiredRevision();
      var applied =
          new DesiredRevision(
              StatefulSetDependent.revision(sts), desiredRevision.templateAccepted());
      int updated =
          seen.any()
              ? (int)
                  seen.pods().stream()
                      .filter(p -> p.exists() && applied.runBy(p.revision()))
                      .count()
              : st == null ? 0 : orZero(st.getUpdatedReplicas());
      boolean observedLatest =
          st != null
              && st.getObservedGeneration() != null
              && st.getObservedGeneration() >= sts.getMetadata().getGeneration();
      boolean matchesModel =
          paused
              || specReplicas == model.pods()
                  && desiredRevision.revision().equals(applied.revision());
      boolean rolledOut = observedLatest && updated >= specReplicas && matchesModel;
      return new Rollout(true, desired, current, ready, updated, rolledOut);
    }

    private static int orZero(Integer value) {
      return value == null ? 0 : value;
    }
  }
}
