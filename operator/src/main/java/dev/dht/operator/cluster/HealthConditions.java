package dev.dht.operator.cluster;

import static dev.dht.operator.kube.Conditions.DEGRADED;
import static dev.dht.operator.kube.Conditions.PROGRESSING;
import static dev.dht.operator.kube.Conditions.READY;

import dev.dht.operator.replacing.NodeReplacement;
import dev.dht.operator.scaling.Membership;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.HashSet;
import java.util.Locale;

/** Ready, Progressing and Degraded: whether the replicas are ready, what changes, what is wrong. */
final class HealthConditions {
  /** Degraded's and Progressing's reason while the Secret of that name is not the cluster's. */
  static final String SECRET_NOT_OWNED = "SecretNotOwned";

  /** Progressing's reason while a change of size is under way. */
  static final String SCALING = "Scaling";

  /** Progressing's reason while a change of the default ack/from is under way. */
  static final String CHANGING_REPLICATION = "ChangingReplication";

  static final String CHANGING_ZONES = "ChangingZones";

  /** Progressing's reason while a node is replaced on a new volume. */
  static final String REPLACING = "Replacing";

  private static final int MAX_MESSAGE = 1024;

  private HealthConditions() {}

  static Condition ready(ConditionFacts f) {
    var refusal = f.in().refusal();
    if (refusal != null) {
      return f.cond(
          READY,
          false,
          refusal.reason(),
          refusal.message()
              + (f.rollout().exists() ? "; " + f.readyText() + " on the pod template before" : ""));
    }
    if (!f.rollout().exists()) {
      return f.cond(READY, false, "Creating", "the StatefulSet does not exist yet");
    }
    if (f.rollout().allReady()) {
      return f.cond(READY, true, "AllReplicasReady", f.readyText());
    }
    return f.cond(READY, false, "ReplicasNotReady", f.readyText());
  }

  static Condition progressing(ConditionFacts f) {
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
    if (in.secret() == SecretState.NOT_OURS) {
      return f.cond(
          PROGRESSING,
          false,
          SECRET_NOT_OWNED,
          "nothing is applied while the Secret "
              + model.secretName()
              + " is not this cluster's (see Degraded)");
    }
    if (in.refusal() != null) {
      return f.cond(
          PROGRESSING,
          false,
          in.refusal().reason(),
          "nothing of the nodes is applied while the operator's policy refuses the spec (see"
              + " Degraded)");
    }
    if (!rollout.exists()) {
      return f.cond(PROGRESSING, true, "Creating", "creating the nodes");
    }
    var membership = model.membership();
    if (membership.getStep() != Membership.Step.STABLE) {
      if (membership.changesReplication()) {
        return f.cond(PROGRESSING, true, CHANGING_REPLICATION, replicationText(f));
      }
      return membership.changesZonesOnly()
          ? f.cond(PROGRESSING, true, CHANGING_ZONES, zonesText(f))
          : f.cond(PROGRESSING, true, SCALING, scalingText(f));
    }
    String replacing = in.replacing();
    if (replacing != null) {
      return f.cond(PROGRESSING, true, REPLACING, replacingText(f, replacing));
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

  /** "3 -> 5 members: joining (epoch 2); waiting for ...". */
  private static String scalingText(ConditionFacts f) {
    var m = f.in().model().membership();
    return m.getMembers() + " -> " + m.getTarget() + " members: " + stepText(f);
  }

  /** "changing the default ack/from 2/3 -> 3/5: streaming (epoch 6); waiting for ...". */
  private static String replicationText(ConditionFacts f) {
    var m = f.in().model().membership();
    return "changing the default ack/from "
        + m.replication()
        + " -> "
        + m.targetReplication()
        + ": "
        + stepText(f);
  }

  /** "moving the replicas to the members' zones [a, b, c]: streaming (epoch 3); ...". */
  private static String zonesText(ConditionFacts f) {
    var m = f.in().model().membership();
    return "moving the replicas to the members' zones "
        + (m.getTargetZones().isEmpty() ? "(none)" : m.getTargetZones())
        + ": "
        + stepText(f);
  }

  /** The step of the change in progress, its epoch, and what the plan waits for. */
  private static String stepText(ConditionFacts f) {
    var m = f.in().model().membership();
    String waiting = f.in().scaling();
    return m.getStep().name().toLowerCase(Locale.ROOT).replace('_', ' ')
        + " (epoch "
        + m.getEpoch()
        + ")"
        + (waiting == null ? "" : "; " + waiting);
  }

  /** "replacing demo-1: ...", and the change of size it holds back, if one is wanted. */
  private static String replacingText(ConditionFacts f, String pod) {
    var model = f.in().model();
    var membership = model.membership();
    String held =
        membership.getMembers() != model.replicas()
            ? "; the change to " + model.replicas() + " members waits for it"
            : !model.replication().equals(membership.replication())
                ? "; the change of the default ack/from waits for it"
                : "";
    return "replacing " + pod + ": " + f.in().currentReplacement().getMessage() + held;
  }

  private static String rollText(ConditionFacts f) {
    int outdated = f.roll().getOutdated().size();
    int pods = f.in().model().pods();
    return (pods - outdated)
        + "/"
        + pods
        + " pods run the current settings; "
        + f.roll().getMessage();
  }

  static Condition degraded(ConditionFacts f) {
    var in = f.in();
    if (in.failure() != null) {
      return f.cond(DEGRADED, true, "ReconcileFailed", describe(in.failure()));
    }
    if (in.secret() == SecretState.NOT_OURS) {
      return f.cond(
          DEGRADED,
          true,
          SECRET_NOT_OWNED,
          "the Secret "
              + in.model().secretName()
              + " exists but was not made by the operator for this DhtCluster (no owner reference to"
              + " its UID): it is not adopted, and no StatefulSet is created or"
              + " updated to mount it. Delete or rename that Secret, or give the cluster another"
              + " name");
    }
    if (in.secret() == SecretState.MISSING) {
      return f.cond(
          DEGRADED,
          true,
          "SecretMissing",
          "the Secret "
              + in.model().secretName()
              + " is missing; it is not generated again, since nodes that restart with another"
              + " secret would be refused by their peers: restore it (README: cluster secret)");
    }
    if (in.refusal() != null) {
      return f.cond(
          DEGRADED,
          true,
          in.refusal().reason(),
          in.refusal().message()
              + ". No StatefulSet is created or changed, and no node restarted, until the spec is"
              + " allowed: running nodes keep the pod template they have");
    }
    if (in.scaling() != null && in.scaling().startsWith("refused")) {
      return f.cond(DEGRADED, true, "ScaleRefused", in.scaling());
    }
    if (f.restartRefused()) {
      return f.cond(DEGRADED, true, "RestartRefused", f.roll().getMessage());
    }
    var replacement = in.currentReplacement();
    if (replacement != null && replacement.getPhase() == NodeReplacement.Phase.Refused) {
      return f.cond(DEGRADED, true, "ReplaceRefused", replacement.getMessage());
    }
    if (unexplainedNotReady(f)) {
      return f.cond(DEGRADED, true, "ReplicasNotReady", f.readyText());
    }
    return f.cond(DEGRADED, false, "AsExpected", "no problem observed");
  }

  /**
   * Replicas are not ready although the cluster was, no change of size explains it, and it is not
   * (only) the pod the roller restarted or the one being replaced.
   */
  private static boolean unexplainedNotReady(ConditionFacts f) {
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
    var expected = new HashSet<String>();
    if (f.roll() != null && f.roll().getRestarting() != null) {
      expected.add(f.roll().getRestarting());
    }
    if (in.replacing() != null) {
      expected.add(in.replacing());
    }
    if (expected.isEmpty()) {
      return true;
    }
    if (!in.seen().any()) {
      return rollout.desired() - rollout.ready() > expected.size();
    }
    return in.seen().pods().stream()
        .filter(p -> p.ordinal() < rollout.desired())
        .anyMatch(p -> !p.up() && !expected.contains(p.name()));
  }

  /** The root cause's class and message, cut to {@link #MAX_MESSAGE} characters. */
  private static String describe(Exception failure) {
    Throwable root = failure;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String text = root.getClass().getSimpleName() + ": " + root.getMessage();
    return text.length() <= MAX_MESSAGE ? text : text.substring(0, MAX_MESSAGE);
  }
}
