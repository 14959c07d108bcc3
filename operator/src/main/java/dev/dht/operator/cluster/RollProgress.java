package dev.dht.operator.cluster;

import dev.dht.operator.cluster.ClusterStatusCalculator.Observation;
import dev.dht.operator.rolling.RollPlan;
import java.util.List;
import java.util.Optional;

/** The roll's state: what is outdated, the pod restarted last until it is back, and why. */
final class RollProgress {
  private RollProgress() {}

  /** The roll to report; null when nothing is outdated and no pod is coming back. */
  static RollStatus of(Observation in, Optional<DhtClusterStatus> previous) {
    String restarting = restarting(in, previous);
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

  /** The pod the roller restarts now, else the one restarted before until it is back in full. */
  private static String restarting(Observation in, Optional<DhtClusterStatus> previous) {
    if (in.roll() instanceof RollPlan.Restart r && r.pod().up()) {
      return r.pod().name();
    }
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
    return stillBack ? earlier : null;
  }
}
