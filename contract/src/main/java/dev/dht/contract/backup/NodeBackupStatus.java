package dev.dht.contract.backup;

/**
 * A node's part of a backup, as {@code GET /v0/admin/backup} reports it: its checkpoint's files,
 * how many it uploaded and how many the store held already, and why it failed.
 *
 * @param backup the backup's id
 * @param phase {@code running}, {@code completed} or {@code failed}
 * @param cut the node's hybrid clock when it was asked, before its checkpoint: every write it
 *     stored before it was asked is in its checkpoint
 * @param newest the node's bound of every timestamp it stored when the checkpoint was taken
 */
public record NodeBackupStatus(
    String backup,
    String phase,
    long startedMillis,
    long finishedMillis,
    long cut,
    long newest,
    int filesTotal,
    int filesUploaded,
    int filesReused,
    long bytesUploaded,
    long bytesReused,
    String reason) {
  public static final String RUNNING = "running";
  public static final String COMPLETED = "completed";
  public static final String FAILED = "failed";

  /** This status, ended {@code failed} at {@code finishedMillis} for {@code reason}. */
  public NodeBackupStatus failed(long finishedMillis, String reason) {
    return new NodeBackupStatus(
        backup,
        FAILED,
        startedMillis,
        finishedMillis,
        cut,
        newest,
        filesTotal,
        filesUploaded,
        filesReused,
        bytesUploaded,
        bytesReused,
        reason);
  }

  public String toJson() {
    return BackupJson.write(this);
  }

  public static NodeBackupStatus parse(String json) {
    return BackupJson.read(json, NodeBackupStatus.class);
  }
}
