package dev.dht.operator.backup;

import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Which of a DhtScheduledBackup's backups go: the newest {@code keep} completed ones stay, older
 * completed ones go, and failed ones go once a newer backup completed (until then the newest
 * failures stay, to look at). A backup that is pending or running, or whose phase is not known yet,
 * is never deleted: a failed backup thus never blocks a newer one, and a running one is never cut
 * short.
 */
public final class Retention {
  private Retention() {}

  /** One of the schedule's backups: its name, phase (may be null) and scheduled time. */
  public record Candidate(String name, String phase, Instant time) {
    boolean completed() {
      return DhtBackupStatus.COMPLETED.equals(phase);
    }

    boolean failed() {
      return DhtBackupStatus.FAILED.equals(phase);
    }
  }

  /** Newest first; ties (the same scheduled time) by name, so that the answer is stable. */
  static final Comparator<Candidate> NEWEST_FIRST =
      Comparator.comparing(Candidate::time).reversed().thenComparing(Candidate::name);

  /** The names of the backups to delete, newest first. */
  public static List<String> toDelete(List<Candidate> backups, int keep) {
    List<Candidate> completed =
        backups.stream().filter(Candidate::completed).sorted(NEWEST_FIRST).toList();
    Optional<Instant> newestCompleted = completed.stream().findFirst().map(Candidate::time);
    return backups.stream()
        .filter(b ->
            (b.completed() && completed.indexOf(b) >= Math.max(keep, 1))
                || (b.failed()
                    && newestCompleted.map(newest -> b.time().isBefore(newest)).orElse(false)))
        .sorted(NEWEST_FIRST)
        .map(Candidate::name)
        .toList();
  }
}
