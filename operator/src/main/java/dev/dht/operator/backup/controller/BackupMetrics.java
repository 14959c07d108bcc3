package dev.dht.operator.backup.controller;

import dev.dht.operator.backup.BackupPhases;
import dev.dht.operator.backup.BackupVerification;
import dev.dht.operator.backup.DhtBackupStatus;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The operator's backup metrics, per namespace and cluster: when the last completed backup ended
 * (Unix seconds), its size (bytes) and how long it took (seconds), and a count of failed backups;
 * when a verification of one of its backups last passed (Unix seconds), and a count of failed
 * verifications (damaged backups). The last completed one is the latest {@code stoppedAt} seen, the
 * last verification the latest {@code completedAt} of a Passed one, so after an operator restart
 * the gauges come back as the existing DhtBackups are reconciled.
 */
final class BackupMetrics {
  static final String LAST_COMPLETED = "dht.backup.last.completed.time";
  static final String LAST_SIZE = "dht.backup.last.size";
  static final String LAST_DURATION = "dht.backup.last.duration";
  static final String FAILED = "dht.backup.failed";
  static final String LAST_VERIFIED = "dht.backup.last.verified.time";
  static final String VERIFICATION_FAILED = "dht.backup.verification.failed";

  private final MeterRegistry registry;
  private final Map<Tags, Last> last = new ConcurrentHashMap<>();

  BackupMetrics(MeterRegistry registry) {
    this.registry = registry;
  }

  /** The last completed backup of one cluster. */
  private static final class Last {
    volatile double completedSeconds = Double.NaN;
    volatile double bytes = Double.NaN;
    volatile double durationSeconds = Double.NaN;
    volatile double verifiedSeconds = Double.NaN;
  }

  /** Counts a completed backup of {@code cluster} if it ended later than the one counted. */
  void completed(String namespace, String cluster, DhtBackupStatus status) {
    if (status.getStoppedAt() == null) {
      return;
    }
    double stopped = Instant.parse(status.getStoppedAt()).toEpochMilli() / 1000.0;
    Last holder = last.computeIfAbsent(tags(namespace, cluster), this::register);
    synchronized (holder) {
      if (!(stopped <= holder.completedSeconds)) { // NaN: none yet
        holder.completedSeconds = stopped;
        holder.bytes = status.getBytes() == null ? Double.NaN : status.getBytes();
        holder.durationSeconds = BackupPhases.durationSeconds(status);
      }
    }
  }

  /** Notes a Passed {@code verification} of a backup of {@code cluster} if it is the latest. */
  void verified(String namespace, String cluster, BackupVerification verification) {
    if (verification == null
        || !BackupVerification.PASSED.equals(verification.getPhase())
        || verification.getCompletedAt() == null) {
      return;
    }
    double completed = Instant.parse(verification.getCompletedAt()).toEpochMilli() / 1000.0;
    Last holder = last.computeIfAbsent(tags(namespace, cluster), this::register);
    synchronized (holder) {
      if (!(completed <= holder.verifiedSeconds)) { // NaN: none yet
        holder.verifiedSeconds = completed;
      }
    }
  }

  /**
   * Makes the failure counters of {@code cluster}, at 0 if new, as soon as one of its backups is
   * seen: a counter first exported at 1 would hide its first failure from {@code increase()}.
   */
  void seen(String namespace, String cluster) {
    verificationFailures(namespace, cluster);
    failures(namespace, cluster);
  }

  /** Counts a verification of a backup of {@code cluster} that found it damaged. */
  void verificationFailed(String namespace, String cluster) {
    verificationFailures(namespace, cluster).increment();
  }

  /** Counts a backup of {@code cluster} that failed. */
  void failed(String namespace, String cluster) {
    failures(namespace, cluster).increment();
  }

  private Counter verificationFailures(String namespace, String cluster) {
    return Counter.builder(VERIFICATION_FAILED)
        .description("Verifications of DhtBackups that found the backup damaged")
        .tags(tags(namespace, cluster))
        .register(registry);
  }

  private Counter failures(String namespace, String cluster) {
    return Counter.builder(FAILED)
        .description("DhtBackups that failed")
        .tags(tags(namespace, cluster))
        .register(registry);
  }

  private Last register(Tags tags) {
    Last holder = new Last();
    Gauge.builder(LAST_COMPLETED, holder, h -> h.completedSeconds)
        .description("When the cluster's last completed DhtBackup ended, in Unix time")
        .baseUnit("seconds")
        .tags(tags)
        .register(registry);
    Gauge.builder(LAST_SIZE, holder, h -> h.bytes)
        .description("What the cluster's last completed DhtBackup holds")
        .baseUnit("bytes")
        .tags(tags)
        .register(registry);
    Gauge.builder(LAST_DURATION, holder, h -> h.durationSeconds)
        .description("How long the cluster's last completed DhtBackup took")
        .baseUnit("seconds")
        .tags(tags)
        .register(registry);
    Gauge.builder(LAST_VERIFIED, holder, h -> h.verifiedSeconds)
        .description("When a verification of a DhtBackup of the cluster last passed, in Unix time")
        .baseUnit("seconds")
        .tags(tags)
        .register(registry);
    return holder;
  }

  private static Tags tags(String namespace, String cluster) {
    return Tags.of("namespace", namespace, "cluster", String.valueOf(cluster));
  }
}
