package dev.dht.operator.backup;

import dev.dht.contract.backup.BackupSummary;
import dev.dht.operator.backup.DhtBackupStatus.NodePart;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.stream.IntStream;

/**
 * The statuses a {@link DhtBackup} goes through: Pending (waiting, with why), Running (the nodes
 * take their parts), then Completed or Failed, which are final. Each is made from the one before,
 * so what a later phase needs (where the backup is, when it started) is kept. Pure.
 */
public final class BackupPhases {
  /** The cluster does not exist. */
  public static final String CLUSTER_NOT_FOUND = "ClusterNotFound";

  /** The cluster has no spec.backup. */
  public static final String NO_BACKUP_STORE = "NoBackupStore";

  /** The cluster is not ready, or changes (scale, roll, replacement). */
  public static final String CLUSTER_BUSY = "ClusterBusy";

  /** Sealing (checking every file and writing the summary) was refused. */
  public static final String SEAL_REFUSED = "SealRefused";

  /** The cluster was deleted, or lost its spec.backup, while the backup ran. */
  public static final String CLUSTER_GONE = "ClusterGone";

  private BackupPhases() {}

  /** Whether nothing more happens to a backup with this status: Completed or Failed. */
  public static boolean isFinal(DhtBackupStatus status) {
    return status != null
        && (DhtBackupStatus.COMPLETED.equals(status.getPhase())
            || DhtBackupStatus.FAILED.equals(status.getPhase()));
  }

  /** Whether the nodes were ever asked to take the backup (so the store may hold parts of it). */
  public static boolean started(DhtBackupStatus status) {
    return status != null && status.getStartedAt() != null;
  }

  /** Pending, waiting for {@code reason}. */
  public static DhtBackupStatus pending(String reason, String message) {
    return DhtBackupStatus.builder()
        .phase(DhtBackupStatus.PENDING)
        .reason(reason)
        .message(message)
        .build();
  }

  /**
   * Running: every member (ordinals 0 to {@code members - 1}) was asked at {@code now} to take
   * backup {@code id} into {@code store}.
   */
  public static DhtBackupStatus running(
      String id, ObjectStoreSpec store, int members, Instant now) {
    return DhtBackupStatus.builder()
        .phase(DhtBackupStatus.RUNNING)
        .message("the " + members + " nodes take their parts")
        .backupId(id)
        .objectStore(store)
        .startedAt(time(now))
        .nodes(
            IntStream.range(0, members)
                .mapToObj(i -> NodePart.builder().ordinal(i).phase("running").build())
                .toList())
        .build();
  }

  /** Still Running, with the nodes' parts and their sums so far. */
  public static DhtBackupStatus progressed(DhtBackupStatus running, List<NodePart> parts) {
    long done = parts.stream().filter(p -> "completed".equals(p.getPhase())).count();
    return running.toBuilder()
        .reason(null)
        .message(done + " of " + parts.size() + " nodes completed their parts")
        .nodes(parts)
        .filesUploaded(parts.stream().mapToInt(p -> orZero(p.getFilesUploaded())).sum())
        .bytesUploaded(parts.stream().mapToLong(p -> orZero(p.getBytesUploaded())).sum())
        .filesReused(parts.stream().mapToInt(p -> orZero(p.getFilesReused())).sum())
        .bytesReused(parts.stream().mapToLong(p -> orZero(p.getBytesReused())).sum())
        .build();
  }

  /**
   * Completed at {@code now} as sealed: what the backup holds (files any node shares count once),
   * what this one uploaded (the summary's sum of the nodes' uploads) and reused (the nodes' sums
   * from {@code running}, else what the summary leaves), and its cut.
   */
  public static DhtBackupStatus completed(
      DhtBackupStatus running, BackupSummary summary, Instant now) {
    return running.toBuilder()
        .phase(DhtBackupStatus.COMPLETED)
        .reason(null)
        .message(
            "backup of "
                + summary.files()
                + " files, "
                + summary.bytes()
                + " bytes ("
                + summary.bytesUploaded()
                + " uploaded by it)")
        .stoppedAt(time(now))
        .cut(summary.cut())
        .cutTime(time(HlcTime.of(summary.cut())))
        .epoch(summary.epoch())
        .files(summary.files())
        .bytes(summary.bytes())
        .filesUploaded(summary.filesUploaded())
        .bytesUploaded(summary.bytesUploaded())
        // the nodes' own counts: nodes holding the same file may each upload it, so the
        // summary's uploads can exceed its (deduplicated) files
        .filesReused(
            running.getFilesReused() != null
                ? running.getFilesReused()
                : Math.max(0, summary.files() - summary.filesUploaded()))
        .bytesReused(
            running.getBytesReused() != null
                ? running.getBytesReused()
                : Math.max(0, summary.bytes() - summary.bytesUploaded()))
        .build();
  }

  /** Failed at {@code now} for {@code reason}; what was known before is kept. */
  public static DhtBackupStatus failed(
      DhtBackupStatus before, String reason, String message, Instant now) {
    var from = before == null ? new DhtBackupStatus() : before;
    return from.toBuilder()
        .phase(DhtBackupStatus.FAILED)
        .reason(reason)
        .message(message)
        .stoppedAt(time(now))
        .build();
  }

  /** How long a completed backup took, in seconds; -1 if it does not say. */
  public static double durationSeconds(DhtBackupStatus status) {
    if (status.getStartedAt() == null || status.getStoppedAt() == null) {
      return -1;
    }
    return Duration.between(
                Instant.parse(status.getStartedAt()), Instant.parse(status.getStoppedAt()))
            .toMillis()
        / 1000.0;
  }

  private static String time(Instant instant) {
    return instant.truncatedTo(ChronoUnit.MILLIS).toString();
  }

  private static int orZero(Integer value) {
    return value == null ? 0 : value;
  }

  private static long orZero(Long value) {
    return value == null ? 0 : value;
  }
}
