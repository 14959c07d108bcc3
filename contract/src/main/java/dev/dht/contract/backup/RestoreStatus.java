package dev.dht.contract.backup;

/**
 * A node's restore from a backup, in its admin status: of the backed-up members' checkpoints, how
 * many it read, and of their keys how many it kept (those it owns in the new cluster's placement).
 *
 * @param phase {@code restoring}, {@code completed} or {@code failed}
 */
public record RestoreStatus(
    String backup,
    String phase,
    int membersRead,
    int membersTotal,
    long bytesDownloaded,
    long keysRead,
    long keysKept,
    String reason) {
  public static final String RESTORING = "restoring";
  public static final String COMPLETED = "completed";
  public static final String FAILED = "failed";

  /** This restore's progress, ended {@code failed} for {@code reason}. */
  public RestoreStatus failed(String reason) {
    return new RestoreStatus(
        backup, FAILED, membersRead, membersTotal, bytesDownloaded, keysRead, keysKept, reason);
  }

  public String toJson() {
    return BackupJson.write(this);
  }

  public static RestoreStatus parse(String json) {
    return BackupJson.read(json, RestoreStatus.class);
  }
}
