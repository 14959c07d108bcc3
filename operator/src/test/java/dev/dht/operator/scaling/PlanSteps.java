package dev.dht.operator.scaling;

import dev.dht.operator.scaling.Membership.Step;
import dev.dht.operator.scaling.ScalePlan.Decision;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/** The memberships a plan goes through, step by step, in the plan's tests. */
final class PlanSteps {
  private PlanSteps() {}

  /**
   * Each membership from {@code now} until it is stable with nothing else wanted (at most 20
   * steps), {@code next} deciding each step from the one before.
   */
  static List<Membership> of(Membership now, Function<Membership, Decision> next) {
    var steps = new ArrayList<Membership>();
    for (int i = 0; i < 20; i++) {
      Decision d = next.apply(now);
      if (d.next().equals(now) && d.next().getStep() == Step.STABLE) {
        break;
      }
      now = d.next();
      steps.add(now);
    }
    return steps;
  }
}
