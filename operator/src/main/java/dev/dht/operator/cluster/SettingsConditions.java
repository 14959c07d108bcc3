package dev.dht.operator.cluster;

import static dev.dht.operator.cluster.ClusterStatusCalculator.CONFIG_APPLIED;
import static dev.dht.operator.cluster.ClusterStatusCalculator.PAUSED;
import static dev.dht.operator.cluster.ClusterStatusCalculator.RESTART_REQUIRED;

import dev.dht.operator.cluster.ClusterStatusCalculator.Observation;
import dev.dht.operator.kube.Conditions;
import dev.dht.operator.scaling.NodeView;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.ArrayList;
import java.util.List;

/** ConfigApplied, Paused and RestartRequired: whether the nodes get the current settings. */
final class SettingsConditions {
  private SettingsConditions() {}

  /**
   * Whether every node runs the current settings, and which do not. A node's default ack/from is
   * compared with those the published members file gives (during a change of them, the ones in
   * force); while these are not yet the wanted ones, the settings are not applied either, though no
   * node is behind.
   */
  static Condition configApplied(ConditionFacts f) {
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
    var behind = behind(in);
    var published = model.membership().published();
    if (behind.isEmpty() && published.equals(model.replication())) {
      return f.cond(
          CONFIG_APPLIED,
          true,
          "Applied",
          "all "
              + model.pods()
              + " nodes run the current settings, membership epoch "
              + model.membership().getEpoch()
              + ", ack/from "
              + published);
    }
    if (behind.isEmpty()) {
      return f.cond(
          CONFIG_APPLIED,
          false,
          in.paused() ? "Paused" : HealthConditions.CHANGING_REPLICATION,
          "all "
              + model.pods()
              + " nodes serve the default ack/from "
              + published
              + "; "
              + model.replication()
              + " takes the steps of a change of membership first (see Progressing)");
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

  /** Each node that does not run the current settings, with the first thing it lacks. */
  private static List<String> behind(Observation in) {
    var model = in.model();
    var desired = model.desiredRevision();
    var published = model.membership().published();
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
      } else if (node.report().defaultAck() != published.ack()
          || node.report().defaultFrom() != published.from()) {
        behind.add(
            name + ": ack/from " + node.report().defaultAck() + "/" + node.report().defaultFrom());
      }
    }
    return behind;
  }

  static Condition paused(ConditionFacts f) {
    return f.in().paused()
        ? f.cond(
            PAUSED,
            true,
            "ReconciliationPaused",
            "annotation " + DhtCluster.PAUSE_ANNOTATION + "=true")
        : f.cond(PAUSED, false, "Reconciling", "reconciliation runs");
  }

  static Condition restartRequired(ConditionFacts f) {
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
}
