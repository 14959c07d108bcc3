package dev.dht.operator.cluster;

import static dev.dht.operator.kube.Conditions.DEGRADED;
import static dev.dht.operator.kube.Conditions.PROGRESSING;
import static dev.dht.operator.kube.Conditions.READY;

import dev.dht.operator.kube.Conditions;
import dev.dht.operator.kube.Events;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Kubernetes Events for notable transitions of a cluster's conditions. */
final class ClusterEvents {
  /** One event to emit; type is Normal or Warning. */
  record Transition(String type, String reason, String message) {}

  private ClusterEvents() {}

  /** The events implied by going from the previous conditions to the next ones. Pure. */
  static List<Transition> between(List<Condition> before, List<Condition> after) {
    var events = new ArrayList<Transition>();
    if (!Conditions.isTrue(before, READY) && Conditions.isTrue(after, READY)) {
      events.add(new Transition("Normal", "ClusterReady", message(after, READY)));
    }
    if (Conditions.isTrue(after, DEGRADED)
        && !(Conditions.isTrue(before, DEGRADED)
            && reason(before, DEGRADED).equals(reason(after, DEGRADED)))) {
      events.add(
          new Transition(
              "Warning", reason(after, DEGRADED), "degraded: " + message(after, DEGRADED)));
    }
    if (Conditions.isTrue(before, DEGRADED) && !Conditions.isTrue(after, DEGRADED)) {
      events.add(new Transition("Normal", "Recovered", "no longer degraded"));
    }
    var change = change(after);
    if (change.isPresent() && !change.equals(change(before))) {
      events.add(change.get());
    }
    String applied = ClusterStatusCalculator.CONFIG_APPLIED;
    if (!Conditions.isTrue(before, applied) && Conditions.isTrue(after, applied)) {
      events.add(new Transition("Normal", applied, message(after, applied)));
    }
    String restart = ClusterStatusCalculator.RESTART_REQUIRED;
    if (!Conditions.isTrue(before, restart) && Conditions.isTrue(after, restart)) {
      events.add(new Transition("Warning", restart, message(after, restart)));
    }
    boolean wasPaused = Conditions.isTrue(before, ClusterStatusCalculator.PAUSED);
    boolean isPaused = Conditions.isTrue(after, ClusterStatusCalculator.PAUSED);
    if (!wasPaused && isPaused) {
      events.add(new Transition("Normal", "ReconciliationPaused", message(after, PROGRESSING)));
    } else if (wasPaused && !isPaused) {
      events.add(new Transition("Normal", "ReconciliationResumed", "reconciliation resumed"));
    }
    return events;
  }

  /**
   * Progressing's reason and message (only) while a change of size, of the default ack/from or of
   * the members' zones, or a node's replacement, is under way: one event per step.
   */
  private static Optional<Transition> change(List<Condition> conditions) {
    return Conditions.find(conditions, PROGRESSING)
        .filter(c ->
            HealthConditions.SCALING.equals(c.getReason())
                || HealthConditions.CHANGING_REPLICATION.equals(c.getReason())
                || HealthConditions.CHANGING_ZONES.equals(c.getReason())
                || HealthConditions.REPLACING.equals(c.getReason()))
        .map(c -> new Transition("Normal", c.getReason(), c.getMessage()));
  }

  private static String reason(List<Condition> conditions, String type) {
    return Conditions.find(conditions, type).map(Condition::getReason).orElse("");
  }

  private static String message(List<Condition> conditions, String type) {
    return Conditions.find(conditions, type).map(Condition::getMessage).orElse("");
  }

  /** Posts the events; a failure is logged, never fails the reconciliation. */
  static void emit(
      KubernetesClient client, DhtCluster cluster, List<Transition> events, Instant now) {
    Events.emit(
        client,
        cluster,
        events.stream().map(e -> new Events.Transition(e.type(), e.reason(), e.message())).toList(),
        now);
  }
}
