package dev.dht.operator.backup;

import dev.dht.operator.kube.Events;
import java.util.List;
import java.util.Objects;

/**
 * The Events a change of a {@link DhtBackup}'s status is worth: Started and Completed (Normal),
 * Failed (Warning), and a Pending backup's new reason to wait (Normal, with that reason). Pure.
 */
public final class BackupEvents {
  public static final String STARTED = "Started";
  public static final String COMPLETED = "Completed";
  public static final String FAILED = "Failed";

  private BackupEvents() {}

  /** The events of going from {@code before} (null: no status yet) to {@code after}. */
  public static List<Events.Transition> between(DhtBackupStatus before, DhtBackupStatus after) {
    String was = before == null ? null : before.getPhase();
    String is = after.getPhase();
    if (DhtBackupStatus.PENDING.equals(is)) {
      boolean newReason =
          !DhtBackupStatus.PENDING.equals(was)
              || !Objects.equals(before.getReason(), after.getReason());
      return newReason
          ? List.of(new Events.Transition(Events.NORMAL, after.getReason(), after.getMessage()))
          : List.of();
    }
    if (Objects.equals(was, is)) {
      return List.of();
    }
    return switch (is) {
      case DhtBackupStatus.RUNNING ->
          List.of(
              new Events.Transition(
                  Events.NORMAL,
                  STARTED,
                  "backup "
                      + after.getBackupId()
                      + " started on "
                      + after.getNodes().size()
                      + " nodes, into "
                      + where(after.getObjectStore())));
      case DhtBackupStatus.COMPLETED ->
          List.of(new Events.Transition(Events.NORMAL, COMPLETED, after.getMessage()));
      case DhtBackupStatus.FAILED ->
          List.of(
              new Events.Transition(
                  Events.WARNING, FAILED, after.getReason() + ": " + after.getMessage()));
      default -> List.of();
    };
  }

  /** A store location in words: bucket and path. */
  public static String where(ObjectStoreSpec store) {
    if (store == null) {
      return "an unknown store";
    }
    return "bucket "
        + store.getBucket()
        + (store.getPath() == null ? "" : " under " + store.getPath())
        + (store.getEndpoint() == null ? "" : " at " + store.getEndpoint());
  }
}
