package dev.dht.operator.cluster;

import static dev.dht.operator.Conditions.DEGRADED;
import static dev.dht.operator.Conditions.PROGRESSING;
import static dev.dht.operator.Conditions.READY;

import dev.dht.operator.Conditions;
import dev.dht.operator.scaling.Membership;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Turns what was observed (the StatefulSet, the previous status, pause, a failure) into the status
 * to write. Pure, so each rule is unit-tested.
 *
 * <ul>
 *   <li>Ready: every desired replica passes its readiness probe.
 *   <li>Progressing: a rollout (create, scale, restart on a new config hash) has not finished, or
 *       the pods of the current generation have not yet all been ready once.
 *   <li>Degraded: reconciliation failed, or replicas stopped being ready after this generation had
 *       been ready with no rollout to explain it.
 * </ul>
 */
final class ClusterStatusCalculator {
  static final int MAX_MESSAGE = 1024;

  private ClusterStatusCalculator() {}

  /** What was observed; {@code failure} is null unless reconciliation threw. */
  record Observation(
      DhtCluster cluster,
      ClusterModel model,
      Optional<StatefulSet> statefulSet,
      boolean paused,
      Exception failure,
      Instant now,
      String scaling) {
    /** Without a change of size under way. */
    Observation(
        DhtCluster cluster,
        ClusterModel model,
        Optional<StatefulSet> statefulSet,
        boolean paused,
        Exception failure,
        Instant now) {
      this(cluster, model, statefulSet, paused, failure, now, null);
    }
  }

  static DhtClusterStatus compute(Observation in) {
    var model = in.model();
    var previous = Optional.ofNullable(in.cluster().getStatus());
    List<Condition> before = previous.map(DhtClusterStatus::getConditions).orElse(List.of());
    long generation = model.generation();
    var rollout = Rollout.of(model, in.statefulSet(), in.paused());

    boolean wasReady =
        sameGeneration(before, READY, generation) && Conditions.isTrue(before, READY)
            || sameGeneration(before, DEGRADED, generation)
                && Conditions.isTrue(before, DEGRADED)
                && Conditions.find(before, DEGRADED)
                    .map(c -> "ReplicasNotReady".equals(c.getReason()))
                    .orElse(false);
    String readyText = rollout.ready() + "/" + rollout.desired() + " replicas ready";

    var status = new DhtClusterStatus();
    boolean keepApplied = in.paused() && previous.isPresent();
    status.setObservedGeneration(generation);
    status.setReplicas(rollout.current());
    status.setReadyReplicas(rollout.ready());
    status.setSelector(model.selector());
    status.setMembers(keepApplied ? previous.get().getMembers() : model.members());
    status.setMembership(keepApplied ? previous.get().getMembership() : model.membership());
    status.setConfigHash(keepApplied ? previous.get().getConfigHash() : model.configHash());
    status.setDefaultAck(keepApplied ? previous.get().getDefaultAck() : model.defaultAck());
    status.setDefaultFrom(keepApplied ? previous.get().getDefaultFrom() : model.defaultFrom());
    status.setPinnedDefaultFrom(
        previous.map(DhtClusterStatus::getPinnedDefaultFrom).orElse(model.defaultFrom()));
    status.setPinnedDefaultAck(
        previous.map(DhtClusterStatus::getPinnedDefaultAck).orElse(model.defaultAck()));

    Condition ready;
    if (!rollout.exists()) {
      ready = cond(in, before, READY, false, "Creating", "the StatefulSet does not exist yet");
    } else if (rollout.allReady()) {
      ready = cond(in, before, READY, true, "AllReplicasReady", readyText);
    } else {
      ready = cond(in, before, READY, false, "ReplicasNotReady", readyText);
    }

    Condition progressing;
    if (in.paused()) {
      progressing =
          cond(
              in,
              before,
              PROGRESSING,
              false,
              "Paused",
              "reconciliation paused by annotation "
                  + DhtCluster.PAUSE_ANNOTATION
                  + "=true; owned resources are left unchanged");
    } else if (!rollout.exists()) {
      progressing = cond(in, before, PROGRESSING, true, "Creating", "creating the nodes");
    } else if (model.membership().getStep() != Membership.Step.STABLE) {
      var m = model.membership();
      progressing =
          cond(
              in,
              before,
              PROGRESSING,
              true,
              "Scaling",
              m.getMembers()
                  + " -> "
                  + m.getTarget()
                  + " members: "
                  + m.getStep().name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ')
                  + " (epoch "
                  + m.getEpoch()
                  + ")"
                  + (in.scaling() == null ? "" : "; " + in.scaling()));
    } else if (!rollout.rolledOut()) {
      progressing =
          cond(
              in,
              before,
              PROGRESSING,
              true,
              "RollingOut",
              rollout.updated()
                  + "/"
                  + rollout.desired()
                  + " replicas updated to config "
                  + model.configHash());
    } else if (!rollout.allReady() && !wasReady) {
      progressing = cond(in, before, PROGRESSING, true, "WaitingForReplicas", readyText);
    } else {
      progressing =
          cond(in, before, PROGRESSING, false, "RolloutComplete", "all replicas are up to date");
    }

    Condition degraded;
    if (in.failure() != null) {
      degraded = cond(in, before, DEGRADED, true, "ReconcileFailed", describe(in.failure()));
    } else if (in.scaling() != null && in.scaling().startsWith("refused")) {
      degraded = cond(in, before, DEGRADED, true, "ScaleRefused", in.scaling());
    } else if (rollout.exists() && rollout.rolledOut() && !rollout.allReady() && wasReady) {
      degraded = cond(in, before, DEGRADED, true, "ReplicasNotReady", readyText);
    } else {
      degraded = cond(in, before, DEGRADED, false, "AsExpected", "no problem observed");
    }

    status.setConditions(List.of(ready, progressing, degraded));
    return status;
  }

  private static boolean sameGeneration(List<Condition> conditions, String type, long generation) {
    return Conditions.find(conditions, type)
        .map(c -> Objects.equals(c.getObservedGeneration(), generation))
        .orElse(false);
  }

  private static Condition cond(
      Observation in,
      List<Condition> before,
      String type,
      boolean value,
      String reason,
      String message) {
    return Conditions.next(before, type, value, reason, message, in.model().generation(), in.now());
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
      int updated = st == null ? 0 : orZero(st.getUpdatedReplicas());
      boolean observedLatest =
          st != null
              && st.getObservedGeneration() != null
              && st.getObservedGeneration() >= sts.getMetadata().getGeneration();
      boolean revisionsSettled =
          st != null
              && (st.getUpdateRevision() == null
                  || st.getUpdateRevision().equals(st.getCurrentRevision()));
      String appliedHash =
          Optional.ofNullable(spec.getTemplate().getMetadata().getAnnotations())
              .map(a -> a.get(ClusterModel.CONFIG_HASH_ANNOTATION))
              .orElse(null);
      boolean matchesModel =
          paused || specReplicas == model.pods() && model.configHash().equals(appliedHash);
      boolean rolledOut =
          observedLatest && revisionsSettled && updated >= specReplicas && matchesModel;
      return new Rollout(true, desired, current, ready, updated, rolledOut);
    }

    private static int orZero(Integer value) {
      return value == null ? 0 : value;
    }
  }
}
