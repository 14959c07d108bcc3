package dev.dht.contract.backup;

/**
 * A node's check of a backup, as {@code GET /v0/admin/backup/verify} reports it: every backed-up
 * member's files downloaded into scratch space and compared with the digests its manifest recorded
 * when they were uploaded, and each checkpoint opened and read to its end.
 *
 * @param phase {@code running}; {@code passed}; {@code failed}: the backup is not as it was taken
 *     (a file missing or corrupt, a checkpoint unreadable, a record stamped after its manifest's
 *     bound), {@code reason} says which; {@code error}: the check could not finish (the store
 *     unreachable, no scratch space), which says nothing of the backup: check again later
 * @param records the records read (tombstones included) over every member's checkpoint
 */
public record VerifyStatus(
    String backup,
    String phase,
    long startedMillis,
    long finishedMillis,
    int membersChecked,
    int membersTotal,
    int filesChecked,
    long bytesDownloaded,
    long records,
    String reason) {
  public static final String RUNNING = "running";
  public static final String PASSED = "passed";
  public static final String FAILED = "failed";
  public static final String ERROR = "error";

  /** Whether the check is over, whatever its outcome. */
  public boolean finished() {
    return !phase.equals(RUNNING);
  }

  /** This check, ended in {@code phase} at {@code finishedMillis}, for {@code reason}. */
  public VerifyStatus ended(String phase, long finishedMillis, String reason) {
    return new VerifyStatus(
        backup,
        phase,
        startedMillis,
        finishedMillis,
        membersChecked,
        membersTotal,
        filesChecked,
        bytesDownloaded,
        records,
        reason);
  }

  public String toJson() {
    return BackupJson.write(this);
  }

  public static VerifyStatus parse(String json) {
    return BackupJson.read(json, VerifyStatus.class);
  }
}
