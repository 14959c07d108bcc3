package dev.dht.operator.kube;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;

/** Kubernetes-style conditions: lastTransitionTime moves only when the status flips. */
public final class Conditions {
  public static final String READY = "Ready";
  public static final String PROGRESSING = "Progressing";
  public static final String DEGRADED = "Degraded";
  public static final String TRUE = "True";
  public static final String FALSE = "False";
  public static final String UNKNOWN = "Unknown";

  private Conditions() {}

  public static Optional<Condition> find(List<Condition> conditions, String type) {
    if (conditions == null) {
      return Optional.empty();
    }
    return conditions.stream().filter(c -> type.equals(c.getType())).findFirst();
  }

  public static boolean isTrue(List<Condition> conditions, String type) {
    return find(conditions, type).map(c -> TRUE.equals(c.getStatus())).orElse(false);
  }

  /** A condition of the given state, carrying over the transition time when status is unchanged. */
  public static Condition next(
      List<Condition> previous,
      String type,
      boolean status,
      String reason,
      String message,
      long generation,
      Instant now) {
    return next(previous, type, status ? TRUE : FALSE, reason, message, generation, now);
  }

  /** As above, for a tri-state condition: statusText is True, False or Unknown. */
  public static Condition next(
      List<Condition> previous,
      String type,
      String statusText,
      String reason,
      String message,
      long generation,
      Instant now) {
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
