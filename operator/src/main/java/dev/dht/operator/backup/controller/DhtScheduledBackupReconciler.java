package dev.dht.operator.backup.controller;

import dev.dht.operator.backup.DhtBackup;
import dev.dht.operator.backup.DhtScheduledBackup;
import dev.dht.operator.backup.DhtScheduledBackupStatus;
import dev.dht.operator.backup.ScheduledBackups;
import dev.dht.operator.kube.Events;
import dev.dht.operator.kube.Events.Transition;
import dev.dht.operator.scaling.NodeAdmin;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.PrimaryUpdateAndCacheUtils;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * Runs a {@link DhtScheduledBackup}: deletes the backups retention lets go, has the store's files
 * no remaining backup needs collected once no backup of the cluster runs, and makes a {@link
 * DhtBackup} when a time of the schedule is due, unless one of the schedule's backups is still
 * pending or running (the time then waits for it, and is taken once it ended, whatever its end: a
 * failed backup never blocks the next). Taking the backup is the DhtBackup controller's.
 *
 * <p>Watches the DhtBackups of the watched namespaces (its own by their label; all of them to know
 * whether one of the cluster runs) and wakes up at the schedule's next time. The clock is given, so
 * that a test can move time.
 */
@ControllerConfiguration(name = DhtScheduledBackupReconciler.NAME)
public class DhtScheduledBackupReconciler implements Reconciler<DhtScheduledBackup> {
  public static final String NAME = "dhtscheduledbackup";

  private final Clock clock;
  private final StoreCollection collection;
  private InformerEventSource<DhtBackup, DhtScheduledBackup> backups;

  public DhtScheduledBackupReconciler() {
    this(Clock.systemUTC(), UnaryOperator.identity());
  }

  /**
   * {@code clock}: now; {@code nodeAddress} maps a node's admin address to the address to call
   * (tests: local ports).
   */
  public DhtScheduledBackupReconciler(Clock clock, UnaryOperator<String> nodeAddress) {
    this.clock = clock;
    this.collection = new StoreCollection(new NodeAdmin(nodeAddress));
  }

  @Override
  public List<EventSource<?, DhtScheduledBackup>> prepareEventSources(
      EventSourceContext<DhtScheduledBackup> context) {
    var config =
        InformerEventSourceConfiguration.from(DhtBackup.class, DhtScheduledBackup.class)
            .withSecondaryToPrimaryMapper((DhtBackup backup) -> {
              String schedule = ScheduleRound.labels(backup).get(ScheduledBackups.LABEL);
              return schedule == null
                  ? Set.of()
                  : Set.of(new ResourceID(schedule, backup.getMetadata().getNamespace()));
            })
            .build();
    backups = new InformerEventSource<>(config, context);
    return List.of(backups);
  }

  @Override
  public UpdateControl<DhtScheduledBackup> reconcile(
      DhtScheduledBackup scheduled, Context<DhtScheduledBackup> context) {
    var now = clock.instant();
    var old =
        scheduled.getStatus() == null ? new DhtScheduledBackupStatus() : scheduled.getStatus();
    var status =
        old.toBuilder().observedGeneration(scheduled.getMetadata().getGeneration()).build();
    var round = new ScheduleRound(scheduled, context, status, now, backups, collection);
    round.deleteWhatRetentionLetsGo();
    round.collectIfQuiet();
    Duration wake = round.takeWhatIsDue();
    round.noteLastSuccess();
    write(scheduled, context, old, status, round.events, now);
    return UpdateControl.<DhtScheduledBackup>noUpdate().rescheduleAfter(wake);
  }

  /**
   * Writes the status if it changed, through the cache, so that the next round starts from it
   * (never from an older lastScheduleTime, which would make the same backup again), and posts the
   * round's events.
   */
  private static void write(
      DhtScheduledBackup scheduled,
      Context<DhtScheduledBackup> context,
      DhtScheduledBackupStatus old,
      DhtScheduledBackupStatus status,
      List<Transition> events,
      Instant now) {
    if (!status.equals(old)) {
      var patch = new DhtScheduledBackup();
      patch.setMetadata(
          new ObjectMetaBuilder()
              .withName(scheduled.getMetadata().getName())
              .withNamespace(scheduled.getMetadata().getNamespace())
              .build());
      patch.setStatus(status);
      PrimaryUpdateAndCacheUtils.ssaPatchStatusAndCacheResource(scheduled, patch, context);
    }
    Events.emit(context.getClient(), scheduled, events, now);
  }
}
