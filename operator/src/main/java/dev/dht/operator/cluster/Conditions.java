package dev.dht.operator.cluster;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;

/** Kubernetes-style conditions: lastTransitionTime moves only when the status flips. */
final class Conditions {
  static final String READY = "Ready";
  static final String PROGRESSING = "Progressing";
  static final String DEGRADED = "Degraded";
  static final String TRUE = "True";
  static final String FALSE = "False";

  private Conditions() {}

  static Optional<Condition> find(List<Condition> conditions, String type) {
    if (conditions == null) {
      return Optional.empty();
    }
    return conditions.stream().filter(c -> type.equals(c.getType())).findFirst();
  }

  static boolean isTrue(List<Condition> conditions, String type) {
    return find(conditions, type).map(c -> TRUE.equals(c.getStatus())).orElse(false);
  }

  /** A condition of the given state, carrying over the transition time when status is unchanged. */
  static Condition next(
      List<Condition> previous,
      String type,
      boolean status,
      String reason,
      String message,
      long generation,
      Instant now) {
    String statusText = status ? TRUE : FALSE;
    String transition =
        find(previous, type)
            .filter(c -> statusText.equals(c.getStatus()) && c.getLastTransitionTime() != null)
            .map(Condition::getLastTransitionTime)
            .orElse(now.truncatedTo(ChronoUnit.SECONDS).toString());
    return new ConditionBuilder()
        .withType(type)
        .withStatus(statusText)
        .withReason(reason)
        .withMessage(message)
        .withObservedGeneration(generation)
        .withLastTransitionTime(transition)
        .build();
  }
}
