package dev.dht.operator.cluster;

import static dev.dht.operator.kube.Conditions.DEGRADED;
import static dev.dht.operator.kube.Conditions.READY;

import dev.dht.operator.cluster.ClusterStatusCalculator.Observation;
import dev.dht.operator.kube.Conditions;
import dev.dht.operator.rolling.RollPlan;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;

/**
 * What the conditions are computed from: the observation, the conditions before, the StatefulSet's
 * rollout, the roll's state as this status reports it, and whether the cluster was ready before (or
 * became not ready from ready).
 */
record ConditionFacts(
    Observation in, List<Condition> before, Rollout rollout, RollStatus roll, boolean wasReady) {

  ConditionFacts(Observation in, List<Condition> before, Rollout rollout, RollStatus roll) {
    this(in, before, rollout, roll, wasReady(before));
  }

  Condition cond(String type, boolean value, String reason, String message) {
    return Conditions.next(before, type, value, reason, message, in.model().generation(), in.now());
  }

  String readyText() {
    return rollout.ready() + "/" + rollout.desired() + " replicas ready";
  }

  boolean restartRefused() {
    return in.roll() instanceof RollPlan.Refuse;
  }

  private static boolean wasReady(List<Condition> before) {
    return Conditions.isTrue(before, READY)
        || Conditions.find(before, DEGRADED)
            .filter(c -> Conditions.TRUE.equals(c.getStatus()))
            .map(c -> "ReplicasNotReady".equals(c.getReason()))
            .orElse(false);
  }
}
