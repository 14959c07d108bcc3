package dev.dht.operator.backup;

import dev.dht.operator.kube.Events;
import java.util.List;
import java.util.Objects;

/**
 * The Events a change of a backup's verification is worth: VerificationStarted and Verified
 * (Normal), VerificationFailed (Warning: the backup is damaged), and VerificationWaits (Normal) for
 * each new reason a Pending one waits or is tried again. Pure.
 */
public final class VerificationEvents {
  public static final String STARTED = "VerificationStarted";
  public static final String VERIFIED = "Verified";
  public static final String FAILED = "VerificationFailed";
  public static final String WAITS = "VerificationWaits";

  private VerificationEvents() {}

  /** The events of going from {@code before} to {@code after} (null: no verification). */
  public static List<Events.Transition> between(
      BackupVerification before, BackupVerification after) {
    if (after == null) {
      return List.of();
    }
    String was = before == null ? null : before.getPhase();
    String is = after.getPhase();
    if (BackupVerification.PENDING.equals(is)) {
      boolean newReason =
          !BackupVerification.PENDING.equals(was)
              || !Objects.equals(before.getReason(), after.getReason());
      return newReason
          ? List.of(
              new Events.Transition(
                  Events.NORMAL, WAITS, after.getReason() + ": " + after.getMessage()))
          : List.of();
    }
    boolean sameCheck =
        Objects.equals(was, is)
            && Objects.equals(before.getObservedGeneration(), after.getObservedGeneration());
    if (sameCheck) {
      return List.of();
    }
    return switch (is) {
      case BackupVerification.RUNNING ->
          List.of(new Events.Transition(Events.NORMAL, STARTED, after.getMessage()));
      case BackupVerification.PASSED ->
          List.of(new Events.Transition(Events.NORMAL, VERIFIED, after.getMessage()));
      case BackupVerification.FAILED ->
          List.of(
              new Events.Transition(
                  Events.WARNING, FAILED, after.getReason() + ": " + after.getMessage()));
      default -> List.of();
    };
  }

  /** Whether {@code after} is a verification that just ended in {@code phase}. */
  public static boolean turned(BackupVerification before, BackupVerification after, String phase) {
    return after != null
        && phase.equals(after.getPhase())
        && (before == null || !phase.equals(before.getPhase()));
  }
}
