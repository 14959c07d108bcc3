package dev.dht.operator.backup.controller;

import dev.dht.operator.backup.CronSchedule;
import dev.dht.operator.backup.DhtBackup;
import dev.dht.operator.backup.DhtBackupSpec;
import dev.dht.operator.backup.DhtBackupStatus;
import dev.dht.operator.backup.DhtScheduledBackup;
import dev.dht.operator.backup.DhtScheduledBackupStatus;
import dev.dht.operator.backup.Retention;
import dev.dht.operator.backup.ScheduleDecision;
import dev.dht.operator.backup.ScheduledBackups;
import dev.dht.operator.cluster.DhtCluster;
import dev.dht.operator.kube.Events;
import dev.dht.operator.kube.Events.Transition;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One reconciliation of a {@link DhtScheduledBackup}, as a chain of steps over the schedule, its
 * backups (from the informer) and the status being made: retention, collection, the backup due, the
 * last success. The events to post gather in {@link #events}.
 */
final class ScheduleRound {
  /** How often a collection is tried again while a backup of the cluster runs, or after failing. */
  static final Duration COLLECT_RETRY = Duration.ofMinutes(1);

  /** How often a time that waits for a pending or running backup is looked at again. */
  static final Duration WAIT_RECHECK = Duration.ofMinutes(1);

  private final DhtScheduledBackup scheduled;
  private final Context<DhtScheduledBackup> context;
  private final DhtScheduledBackupStatus status;
  private final Instant now;
  private final String namespace;
  private final String clusterName;
  private final List<DhtBackup> clusterBackups;
  private final List<DhtBackup> own;
  private final StoreCollection collection;
  final List<Transition> events = new ArrayList<>();
  private Duration wake = null;

  ScheduleRound(
      DhtScheduledBackup scheduled,
      Context<DhtScheduledBackup> context,
      DhtScheduledBackupStatus status,
      Instant now,
      InformerEventSource<DhtBackup, DhtScheduledBackup> backups,
      StoreCollection collection) {
    this.collection = collection;
    this.scheduled = scheduled;
    this.context = context;
    this.status = status;
    this.now = now;
    this.namespace = scheduled.getMetadata().getNamespace();
    this.clusterName = scheduled.getSpec().getCluster();
    this.clusterBackups =
        backups.list(namespace, b -> Objects.equals(b.clusterName(), clusterName)).toList();
    String name = scheduled.getMetadata().getName();
    this.own =
        backups.list(namespace, b -> name.equals(labels(b).get(ScheduledBackups.LABEL))).toList();
  }

  /** Retention over the schedule's backups that are not on their way out already. */
  void deleteWhatRetentionLetsGo() {
    var candidates =
        own.stream()
            .filter(b -> b.getMetadata().getDeletionTimestamp() == null)
            .map(b -> new Retention.Candidate(b.backupId(), phase(b), time(b)))
            .toList();
    int keep = Objects.requireNonNullElse(scheduled.getSpec().getKeep(), 7);
    var doomed = Retention.toDelete(candidates, keep);
    for (String name : doomed) {
      context.getClient().resources(DhtBackup.class).inNamespace(namespace).withName(name).delete();
    }
    if (!doomed.isEmpty()) {
      status.setCollectPending(true);
      events.add(
          new Transition(
              Events.NORMAL,
              "BackupsDeleted",
              "deleted " + String.join(", ", doomed) + " (keeping " + keep + " completed)"));
    }
  }

  /**
   * The store's unneeded files are collected once the deleted backups are gone from it (their
   * DhtBackups' finalizers ran) and no backup of the cluster is unfinished: a running backup's
   * files are listed by no manifest until it ends, and a file it reuses keeps its old age.
   */
  void collectIfQuiet() {
    if (!Boolean.TRUE.equals(status.getCollectPending())) {
      return;
    }
    // a Pending backup may have some nodes' parts running already (the others refused for now)
    boolean busy =
        clusterBackups.stream()
            .anyMatch(b -> b.getMetadata().getDeletionTimestamp() != null || !finished(b));
    var cluster = cluster();
    if (busy || cluster == null) {
      wakeWithin(COLLECT_RETRY);
      return;
    }
    var outcome =
        collection.collect(context.getClient(), cluster, scheduled.getSpec().collectGrace());
    if (outcome.done()) {
      status.setCollectPending(null);
      status.setLastCollectTime(now.toString());
      events.add(new Transition(Events.NORMAL, "StoreCollected", outcome.text()));
    } else {
      events.add(new Transition(Events.WARNING, "CollectFailed", outcome.text()));
      wakeWithin(COLLECT_RETRY);
    }
  }

  /** Makes the backup of the time due, if one is and nothing stands in the way. */
  Duration takeWhatIsDue() {
    CronSchedule schedule;
    try {
      schedule = CronSchedule.parse(scheduled.getSpec().getSchedule());
    } catch (IllegalArgumentException e) {
      status.setNextScheduleTime(null);
      refuse("InvalidSchedule", "spec.schedule: " + e.getMessage());
      return wake();
    }
    boolean suspended = Boolean.TRUE.equals(scheduled.getSpec().getSuspend());
    var decision = ScheduleDecision.at(schedule, lastScheduleTime(), now);
    status.setNextScheduleTime(suspended ? null : decision.next().toString());
    if (suspended) {
      status.setMessage("suspended");
      return wake();
    }
    wakeWithin(decision.untilNext(now));
    String unusable = clusterUnusable();
    if (unusable != null) {
      refuse("ClusterNotUsable", unusable);
      return wake();
    }
    var unfinished =
        own.stream()
            .filter(b -> b.getMetadata().getDeletionTimestamp() == null)
            .filter(b -> !finished(b))
            .max(Comparator.comparing(ScheduleRound::time));
    if (!decision.isDue()) {
      status.setMessage(null);
    } else if (unfinished.isPresent()) {
      var running = unfinished.get();
      status.setMessage(
          "the backup of "
              + decision.due()
              + " waits for "
              + running.backupId()
              + " ("
              + Objects.requireNonNullElse(phase(running), "not started")
              + ") to end");
      wakeWithin(WAIT_RECHECK);
    } else {
      create(decision.due());
    }
    return wake();
  }

  /** The status names the newest completed backup. */
  void noteLastSuccess() {
    own.stream()
        .filter(b -> DhtBackupStatus.COMPLETED.equals(phase(b)))
        .max(Comparator.comparing(ScheduleRound::time))
        .ifPresent(b -> {
          status.setLastSuccessfulBackup(b.backupId());
          status.setLastSuccessfulTime(b.getStatus().getStoppedAt());
        });
  }

  private void create(Instant due) {
    String name = ScheduledBackups.name(scheduled.getMetadata().getName(), due);
    var backup = new DhtBackup();
    backup.setMetadata(
        new ObjectMetaBuilder()
            .withName(name)
            .withNamespace(namespace)
            .withLabels(Map.of(ScheduledBackups.LABEL, scheduled.getMetadata().getName()))
            .withAnnotations(Map.of(ScheduledBackups.TIME_ANNOTATION, due.toString()))
            .build());
    backup.setSpec(
        DhtBackupSpec.builder()
            .cluster(clusterName)
            .verify(Boolean.TRUE.equals(scheduled.getSpec().getVerify()) ? true : null)
            .build());
    try {
      context.getClient().resource(backup).create();
      events.add(
          new Transition(Events.NORMAL, "BackupCreated", "made " + name + " for the time " + due));
      status.setMessage(null);
    } catch (KubernetesClientException e) {
      if (e.getCode() != 409) {
        throw e;
      }
      // made by an earlier round whose status did not get written: it is this time's backup
      status.setMessage(null);
    }
    status.setLastScheduleTime(due.toString());
    status.setLastBackup(name);
  }

  /** Why no backup can be made of the cluster, or null. */
  private String clusterUnusable() {
    var cluster = cluster();
    if (cluster == null) {
      return "DhtCluster " + clusterName + " does not exist in this namespace";
    }
    if (cluster.getSpec() == null || cluster.getSpec().getBackup() == null) {
      return "DhtCluster " + clusterName + " has no spec.backup (where its backups go)";
    }
    return null;
  }

  private DhtCluster clusterRead;

  private DhtCluster cluster() {
    if (clusterRead == null) {
      clusterRead =
          context
              .getClient()
              .resources(DhtCluster.class)
              .inNamespace(namespace)
              .withName(clusterName)
              .get();
    }
    return clusterRead;
  }

  /** No backup is made: the status says why, and an event too when that is news. */
  private void refuse(String reason, String message) {
    if (!message.equals(
        scheduled.getStatus() == null ? null : scheduled.getStatus().getMessage())) {
      events.add(new Transition(Events.WARNING, reason, message));
    }
    status.setMessage(message);
  }

  private Instant lastScheduleTime() {
    String last = status.getLastScheduleTime();
    return Instant.parse(last != null ? last : scheduled.getMetadata().getCreationTimestamp());
  }

  private void wakeWithin(Duration within) {
    wake = wake == null || within.compareTo(wake) < 0 ? within : wake;
  }

  private Duration wake() {
    return wake == null ? Duration.ofHours(1) : wake;
  }

  private static boolean finished(DhtBackup backup) {
    String phase = phase(backup);
    return DhtBackupStatus.COMPLETED.equals(phase) || DhtBackupStatus.FAILED.equals(phase);
  }

  private static String phase(DhtBackup backup) {
    return backup.getStatus() == null ? null : backup.getStatus().getPhase();
  }

  /** The backup's scheduled time (its annotation), else its creation. */
  static Instant time(DhtBackup backup) {
    String created = backup.getMetadata().getCreationTimestamp();
    return ScheduledBackups.time(
        backup.getMetadata().getAnnotations(),
        created == null ? Instant.EPOCH : Instant.parse(created));
  }

  static Map<String, String> labels(DhtBackup backup) {
    var labels = backup.getMetadata().getLabels();
    return labels == null ? Map.of() : labels;
  }
}
