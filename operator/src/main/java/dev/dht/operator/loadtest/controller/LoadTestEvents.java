package dev.dht.operator.loadtest.controller;

import static dev.dht.operator.kube.Events.NORMAL;
import static dev.dht.operator.kube.Events.WARNING;
import static dev.dht.operator.loadtest.controller.LoadTestStatusCalculator.PASSED_CONDITION;
import static dev.dht.operator.loadtest.controller.LoadTestStatusCalculator.SUCCEEDED_CONDITION;
import static dev.dht.operator.loadtest.controller.LoadTestStatusCalculator.TARGET_READY;

import dev.dht.operator.kube.Conditions;
import dev.dht.operator.kube.Events.Transition;
import dev.dht.operator.loadtest.DhtLoadTestStatus;
import dev.dht.operator.loadtest.job.ControlToken;
import dev.dht.operator.loadtest.job.Target;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** Kubernetes Events for a load test's transitions: waiting, started, finished, verdict. Pure. */
final class LoadTestEvents {
  private LoadTestEvents() {}

  static List<Transition> between(DhtLoadTestStatus before, DhtLoadTestStatus after) {
    var events = new ArrayList<Transition>();
    String phaseBefore = before == null ? null : before.getPhase();
    List<Condition> was = before == null ? List.of() : before.getConditions();
    List<Condition> now = after.getConditions();
    String phase = after.getPhase();

    var waiting = Conditions.find(now, TARGET_READY).filter(c -> "False".equals(c.getStatus()));
    if (DhtLoadTestStatus.PENDING.equals(phase)
        && waiting.isPresent()
        && !reason(was, TARGET_READY).equals(waiting.get().getReason())) {
      var target = waiting.get();
      boolean warn =
          Target.CLUSTER_NOT_FOUND.equals(target.getReason())
              || ControlToken.NOT_OWNED.equals(target.getReason());
      events.add(new Transition(warn ? WARNING : NORMAL, target.getReason(), target.getMessage()));
    }
    if (!Objects.equals(phaseBefore, phase)) {
      String message = message(now, SUCCEEDED_CONDITION);
      switch (phase) {
        case DhtLoadTestStatus.RUNNING -> events.add(new Transition(NORMAL, "Started", message));
        case DhtLoadTestStatus.SUCCEEDED ->
            events.add(new Transition(NORMAL, "Succeeded", message));
        case DhtLoadTestStatus.FAILED -> events.add(new Transition(WARNING, "Failed", message));
        default -> {}
      }
    }
    if (after.getVerdict() != null
        && !after.getVerdict().equals(before == null ? null : before.getVerdict())) {
      var passed = Conditions.find(now, PASSED_CONDITION).orElseThrow();
      boolean ok = DhtLoadTestStatus.PASSED.equals(after.getVerdict());
      events.add(new Transition(ok ? NORMAL : WARNING, passed.getReason(), passed.getMessage()));
    }
    if (reason(now, SUCCEEDED_CONDITION).equals(LoadTestStatusCalculator.RECONCILE_FAILED)
        && changed(was, now, SUCCEEDED_CONDITION)) {
      events.add(
          new Transition(
              WARNING,
              LoadTestStatusCalculator.RECONCILE_FAILED,
              message(now, SUCCEEDED_CONDITION)));
    }
    return events;
  }

  /** Reason or message differs. */
  private static boolean changed(List<Condition> before, List<Condition> after, String type) {
    Optional<Condition> was = Conditions.find(before, type);
    Optional<Condition> is = Conditions.find(after, type);
    return !Objects.equals(was.map(Condition::getReason), is.map(Condition::getReason))
        || !Objects.equals(was.map(Condition::getMessage), is.map(Condition::getMessage));
  }

  private static String reason(List<Condition> conditions, String type) {
    return Conditions.find(conditions, type).map(Condition::getReason).orElse("");
  }

  private static String message(List<Condition> conditions, String type) {
    return Conditions.find(conditions, type).map(Condition::getMessage).orElse("");
  }
}
