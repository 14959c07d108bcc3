package dev.dht.operator.backup.controller;

import dev.dht.contract.backup.BackupSummary;
import dev.dht.operator.backup.BackupEvents;
import dev.dht.operator.backup.BackupPhases;
import dev.dht.operator.backup.BackupProgress;
import dev.dht.operator.backup.BackupVerification;
import dev.dht.operator.backup.DhtBackup;
import dev.dht.operator.backup.DhtBackupStatus;
import dev.dht.operator.backup.ObjectStoreSpec;
import dev.dht.operator.backup.VerificationEvents;
import dev.dht.operator.backup.Verifications;
import dev.dht.operator.cluster.AdminAccess;
import dev.dht.operator.cluster.DhtCluster;
import dev.dht.operator.cluster.Transport;
import dev.dht.operator.kube.Events;
import dev.dht.operator.scaling.NodeAccess;
import dev.dht.operator.scaling.NodeAdmin;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * Takes the one backup a {@link DhtBackup} asks for, as a runbook: wait (Pending, with why) until
 * its cluster exists, has spec.backup and is ready ({@link ClusterReadiness}); ask every member to
 * take its part ({@code POST /v0/admin/backup?id=<name>}) and record Running with where the backup
 * goes; poll the members' parts ({@link BackupProgress}); once all completed, seal it on one node
 * and record Completed with what it holds; any node's failure, lost part or long silence records
 * Failed. Completed and Failed are final; a completed backup with spec.verify is then verified on
 * one node ({@link BackupVerifier}), which shows in status.verification and never changes the
 * phase. Everything it needs to go on is in the status, so an operator restart simply goes on.
 * Deleting a DhtBackup deletes the backup from the store (finalizer {@value #FINALIZER}), or says
 * in a Warning where it stays.
 */
@ControllerConfiguration(
    name = DhtBackupReconciler.NAME,
    finalizerName = DhtBackupReconciler.FINALIZER)
public class DhtBackupReconciler implements Reconciler<DhtBackup>, Cleaner<DhtBackup> {
  public static final String NAME = "dhtbackup";
  public static final String FINALIZER = "dht.dev/backup";

  /** How often a Pending backup looks at its cluster again. */
  static final Duration PENDING_PERIOD = Duration.ofSeconds(10);

  /** How often a Running backup asks the nodes for their parts. */
  static final Duration POLL_PERIOD = Duration.ofSeconds(3);

  /** How often a deletion held by a restore of the backup looks again. */
  static final Duration RESTORE_PERIOD = Duration.ofSeconds(30);

  /** How long a deletion waits for a node to answer before it lets the backup's objects be. */
  static final Duration DELETE_PATIENCE = Duration.ofMinutes(2);

  public static final String MEMBERSHIP_CHANGED = "MembershipChanged";
  public static final String DELETED = "Deleted";
  public static final String NOT_DELETED = "NotDeleted";

  private final BackupNodes nodes;
  private final BackupMetrics metrics;
  private final BackupVerifier verifier;

  public DhtBackupReconciler(NodeAdmin admin, MeterRegistry registry) {
    this.nodes = new BackupNodes(admin);
    this.metrics = new BackupMetrics(registry);
    this.verifier = new BackupVerifier(nodes);
  }

  @Override
  public UpdateControl<DhtBackup> reconcile(DhtBackup backup, Context<DhtBackup> context) {
    metrics.seen(namespace(backup), backup.clusterName());
    var status = backup.getStatus();
    if (BackupPhases.isFinal(status)) {
      if (DhtBackupStatus.COMPLETED.equals(status.getPhase())) {
        metrics.completed(namespace(backup), backup.clusterName(), status); // after a restart
        metrics.verified(namespace(backup), backup.clusterName(), status.getVerification());
        var need = Verifications.need(backup);
        if (!(need instanceof Verifications.Nothing)) {
          var step = verifier.step(backup, cluster(backup, context), context.getClient(), need);
          return write(
              backup, context, status.toBuilder().verification(step.next()).build(), step.after());
        }
      }
      return UpdateControl.noUpdate();
    }
    var cluster = cluster(backup, context);
    if (!BackupPhases.started(status)) {
      return waitOrStart(backup, context, cluster);
    }
    return poll(backup, context, cluster);
  }

  /** Pending while the cluster cannot be backed up; else every member asked, and Running. */
  private UpdateControl<DhtBackup> waitOrStart(
      DhtBackup backup, Context<DhtBackup> context, DhtCluster cluster) {
    var verdict = ClusterReadiness.of(cluster, backup.clusterName());
    if (verdict instanceof ClusterReadiness.Wait(String reason, String message)) {
      return write(backup, context, BackupPhases.pending(reason, message), PENDING_PERIOD);
    }
    var ready = (ClusterReadiness.Ready) verdict;
    String other = otherBackupRunning(backup, context);
    if (other != null) { // its nodes would refuse, or lose their part of it to this one
      return write(
          backup,
          context,
          BackupPhases.pending(
              BackupPhases.CLUSTER_BUSY,
              "DhtBackup " + other + " of the cluster runs; this one starts after it"),
          PENDING_PERIOD);
    }
    var access =
        AdminAccess.of(
            context.getClient(), namespace(backup), backup.clusterName(), ready.transport());
    Map<Integer, String> refusals = nodes.start(ready.members(), access, backup.backupId());
    var refused =
        refusals.entrySet().stream()
            .filter(e -> e.getValue() != null)
            .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    Instant now = Instant.now();
    // a refusal passes (a part of a failed backup still uploading, a membership change starting,
    // data still being pulled): asked again later; a node that started answers 202 again
    if (!refused.isEmpty()) {
      return write(
          backup,
          context,
          BackupPhases.pending(
              BackupPhases.CLUSTER_BUSY, "not every node took its part yet: " + describe(refused)),
          PENDING_PERIOD);
    }
    return write(
        backup,
        context,
        BackupPhases.running(backup.backupId(), ready.store(), ready.members().size(), now),
        POLL_PERIOD);
  }

  /** Another DhtBackup of the same cluster that runs (the informer's cache), or null. */
  private static String otherBackupRunning(DhtBackup backup, Context<DhtBackup> context) {
    return context
        .getPrimaryCache()
        .list(namespace(backup))
        .filter(b -> !b.getMetadata().getName().equals(backup.getMetadata().getName()))
        .filter(b -> Objects.equals(b.clusterName(), backup.clusterName()))
        .filter(
            b -> b.getStatus() != null && DhtBackupStatus.RUNNING.equals(b.getStatus().getPhase()))
        .map(b -> b.getMetadata().getName())
        .findFirst()
        .orElse(null);
  }

  /** The members' parts: Running on, Failed, or sealed and Completed. */
  private UpdateControl<DhtBackup> poll(
      DhtBackup backup, Context<DhtBackup> context, DhtCluster cluster) {
    var status = backup.getStatus();
    Instant now = Instant.now();
    String gone = goneOrChanged(cluster, backup, status);
    if (gone != null) {
      String reason = gone.contains("membership") ? MEMBERSHIP_CHANGED : BackupPhases.CLUSTER_GONE;
      return write(backup, context, BackupPhases.failed(status, reason, gone, now), null);
    }
    var members = cluster.getStatus().getMembers();
    var access = access(context, backup, cluster);
    var progress =
        BackupProgress.of(backup.backupId(), status.getNodes(), nodes.parts(members, access), now);
    var progressed = BackupPhases.progressed(status, progress.parts());
    return switch (progress.verdict()) {
      case BackupProgress.Running r -> write(backup, context, progressed, POLL_PERIOD);
      case BackupProgress.Failed(String reason, String message) ->
          write(backup, context, BackupPhases.failed(progressed, reason, message, now), null);
      case BackupProgress.AllCompleted c -> seal(backup, context, progressed, members, access);
    };
  }

  /** Seals on the first member that answers: Completed, Failed if refused, else later again. */
  private UpdateControl<DhtBackup> seal(
      DhtBackup backup,
      Context<DhtBackup> context,
      DhtBackupStatus progressed,
      List<String> members,
      NodeAccess access) {
    StringBuilder notReached = new StringBuilder();
    for (int i = 0; i < members.size(); i++) {
      var outcome = nodes.seal(members.get(i), access, backup.backupId());
      switch (outcome) {
        case BackupNodes.Done<BackupSummary>(var summary) -> {
          // a status change does not trigger a reconcile: one to verify it is asked for here
          Duration verifyAfter =
              backup.getSpec().verifyRequested() ? Verifications.POLL_PERIOD : null;
          return write(
              backup,
              context,
              BackupPhases.completed(progressed, summary, Instant.now()),
              verifyAfter);
        }
        case BackupNodes.Refused<?>(int code, String text) -> {
          return write(
              backup,
              context,
              BackupPhases.failed(
                  progressed,
                  BackupPhases.SEAL_REFUSED,
                  "node " + i + " could not seal the backup (" + code + "): " + text,
                  Instant.now()),
              null);
        }
        case BackupNodes.NotReached<?>(String why) ->
            notReached.append("node ").append(i).append(": ").append(why).append("; ");
      }
    }
    return write(
        backup,
        context,
        progressed.toBuilder()
            .message("every node completed its part; no node reached to seal it: " + notReached)
            .build(),
        POLL_PERIOD);
  }

  /** Why a running backup cannot go on with its cluster: gone, no store, other members. */
  private static String goneOrChanged(
      DhtCluster cluster, DhtBackup backup, DhtBackupStatus status) {
    if (cluster == null) {
      return "DhtCluster " + backup.clusterName() + " was deleted during the backup";
    }
    if (cluster.getSpec() == null || cluster.getSpec().getBackup() == null) {
      return "DhtCluster " + backup.clusterName() + " lost its spec.backup during the backup";
    }
    var members = cluster.getStatus() == null ? null : cluster.getStatus().getMembers();
    int started = status.getNodes() == null ? 0 : status.getNodes().size();
    if (members == null || members.size() != started) {
      return "the membership changed during the backup: "
          + started
          + " members when it started, "
          + (members == null ? 0 : members.size())
          + " now";
    }
    return null;
  }

  @Override
  public DeleteControl cleanup(DhtBackup backup, Context<DhtBackup> context) {
    var status = backup.getStatus();
    if (!BackupPhases.started(status)) {
      return DeleteControl.defaultDelete();
    }
    String id = backup.backupId();
    String restoring = restoringFrom(backup, context);
    if (restoring != null) { // its nodes still read it: the objects go once they are done
      Events.emit(
          context.getClient(),
          backup,
          List.of(
              new Events.Transition(
                  Events.NORMAL,
                  "HeldByRestore",
                  "DhtCluster " + restoring + " restores this backup: it is deleted once done")),
          Instant.now());
      return DeleteControl.noFinalizerRemoval().rescheduleAfter(RESTORE_PERIOD);
    }
    String stays =
        "backup "
            + id
            + " stays in the store: "
            + BackupEvents.where(status.getObjectStore())
            + ", under backups/"
            + id
            + "/";
    var cluster = cluster(backup, context);
    if (cluster == null
        || cluster.getSpec() == null
        || cluster.getSpec().getBackup() == null
        || cluster.getStatus() == null
        || cluster.getStatus().getMembers() == null) {
      return letGo(
          backup,
          context,
          "DhtCluster " + backup.clusterName() + " is gone or has no spec.backup: " + stays);
    }
    var spec = cluster.getSpec().getBackup();
    var current =
        spec.getObjectStore().toBuilder()
            .path(spec.pathOrDefault(namespace(backup), backup.clusterName()))
            .build();
    if (!ObjectStoreSpec.sameObjects(current, status.getObjectStore())) {
      return letGo(
          backup,
          context,
          "DhtCluster " + backup.clusterName() + " backs up to another store now: " + stays);
    }
    var access = access(context, backup, cluster);
    var members = cluster.getStatus().getMembers();
    StringBuilder notReached = new StringBuilder();
    for (int i = 0; i < members.size(); i++) {
      switch (nodes.delete(members.get(i), access, id)) {
        case BackupNodes.Done<String>(var answer) -> {
          Events.emit(
              context.getClient(),
              backup,
              List.of(
                  new Events.Transition(
                      Events.NORMAL,
                      DELETED,
                      "backup " + id + " deleted from the store: " + answer)),
              Instant.now());
          return DeleteControl.defaultDelete();
        }
        case BackupNodes.Refused<?>(int code, String text) -> {
          return letGo(
              backup,
              context,
              "node " + i + " refused to delete it (" + code + ": " + text + "): " + stays);
        }
        case BackupNodes.NotReached<?>(String why) ->
            notReached.append("node ").append(i).append(": ").append(why).append("; ");
      }
    }
    String deleted = backup.getMetadata().getDeletionTimestamp();
    if (deleted != null && Instant.parse(deleted).plus(DELETE_PATIENCE).isBefore(Instant.now())) {
      return letGo(backup, context, "no node answered (" + notReached + "): " + stays);
    }
    return DeleteControl.noFinalizerRemoval().rescheduleAfter(PENDING_PERIOD);
  }

  /**
   * A DhtCluster of the namespace that restores this backup and has not finished (it names it in
   * status.restore), or null.
   */
  private static String restoringFrom(DhtBackup backup, Context<DhtBackup> context) {
    return context
        .getClient()
        .resources(DhtCluster.class)
        .inNamespace(namespace(backup))
        .list()
        .getItems()
        .stream()
        .filter(c -> c.getStatus() != null && c.getStatus().getRestore() != null)
        .filter(c -> !c.getStatus().getRestore().completed())
        .filter(c -> backup.backupId().equals(c.getStatus().getRestore().getBackup()))
        .filter(c ->
            ObjectStoreSpec.sameObjects(
                c.getStatus().getRestore().getObjectStore(), backup.getStatus().getObjectStore()))
        .map(c -> c.getMetadata().getName())
        .findFirst()
        .orElse(null);
  }

  /** Lets the DhtBackup go without deleting the backup, and says so in a Warning. */
  private static DeleteControl letGo(DhtBackup backup, Context<DhtBackup> context, String message) {
    Events.emit(
        context.getClient(),
        backup,
        List.of(new Events.Transition(Events.WARNING, NOT_DELETED, message)),
        Instant.now());
    return DeleteControl.defaultDelete();
  }

  /**
   * Writes {@code next} as the status if it changed, with the events and metrics of the change;
   * looks again after {@code period} (null: never, the backup is final).
   */
  private UpdateControl<DhtBackup> write(
      DhtBackup backup, Context<DhtBackup> context, DhtBackupStatus next, Duration period) {
    var before = backup.getStatus();
    var verifiedBefore = before == null ? null : before.getVerification();
    var events = new ArrayList<>(BackupEvents.between(before, next));
    events.addAll(VerificationEvents.between(verifiedBefore, next.getVerification()));
    Events.emit(context.getClient(), backup, events, Instant.now());
    if (VerificationEvents.turned(
        verifiedBefore, next.getVerification(), BackupVerification.PASSED)) {
      metrics.verified(namespace(backup), backup.clusterName(), next.getVerification());
    } else if (VerificationEvents.turned(
        verifiedBefore, next.getVerification(), BackupVerification.FAILED)) {
      metrics.verificationFailed(namespace(backup), backup.clusterName());
    }
    boolean turnedFinal = BackupPhases.isFinal(next) && !BackupPhases.isFinal(before);
    if (turnedFinal && DhtBackupStatus.COMPLETED.equals(next.getPhase())) {
      metrics.completed(namespace(backup), backup.clusterName(), next);
    } else if (turnedFinal) {
      metrics.failed(namespace(backup), backup.clusterName());
    }
    UpdateControl<DhtBackup> control;
    if (next.equals(before)) {
      control = UpdateControl.noUpdate();
    } else {
      var patch = new DhtBackup();
      patch.setMetadata(
          new ObjectMetaBuilder()
              .withName(backup.getMetadata().getName())
              .withNamespace(namespace(backup))
              .build());
      patch.setStatus(next);
      control = UpdateControl.patchStatus(patch);
    }
    return period == null ? control : control.rescheduleAfter(period);
  }

  private static DhtCluster cluster(DhtBackup backup, Context<DhtBackup> context) {
    if (backup.clusterName() == null) {
      return null;
    }
    return context
        .getClient()
        .resources(DhtCluster.class)
        .inNamespace(namespace(backup))
        .withName(backup.clusterName())
        .get();
  }

  private static NodeAccess access(
      Context<DhtBackup> context, DhtBackup backup, DhtCluster cluster) {
    return AdminAccess.of(
        context.getClient(),
        namespace(backup),
        backup.clusterName(),
        Objects.requireNonNullElse(cluster.getStatus().getTransport(), Transport.Plain));
  }

  private static String describe(Map<Integer, String> byOrdinal) {
    return byOrdinal.entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .map(e -> "node " + e.getKey() + " (" + e.getValue() + ")")
        .collect(Collectors.joining(", "));
  }

  private static String namespace(DhtBackup backup) {
    return backup.getMetadata().getNamespace();
  }
}
