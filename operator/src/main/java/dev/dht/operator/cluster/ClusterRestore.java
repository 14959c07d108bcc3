package dev.dht.operator.cluster;

import dev.dht.contract.backup.RestoreStatus;
import dev.dht.operator.backup.BackupSpec;
import dev.dht.operator.backup.DhtBackup;
import dev.dht.operator.backup.DhtBackupStatus;
import dev.dht.operator.backup.ObjectStoreSpec;
import dev.dht.operator.backup.RestoreState;
import dev.dht.operator.backup.RestoreTally;
import dev.dht.operator.bounded.ReadLimit;
import dev.dht.operator.kube.Conditions;
import dev.dht.operator.scaling.NodeAccess;
import dev.dht.operator.scaling.NodeAdmin;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A cluster created from a backup (spec.bootstrap.backup): the source resolved once (a DhtBackup's
 * store and id, or the ones the spec names) and kept in status.restore, the nodes held back (no
 * StatefulSet) while it cannot be, and the nodes' progress until every one loaded its share.
 */
final class ClusterRestore {
  static final String RESTORED = "Restored";

  /** {@code GET /v0/admin/restore}: a few hundred bytes. */
  private static final ReadLimit RESTORE =
      new ReadLimit("a node's /v0/admin/restore", 16 * 1024, Duration.ofSeconds(2));

  private ClusterRestore() {}

  /**
   * The restore: its source and progress, or why the nodes wait ({@code holdReason}: a condition
   * reason, with {@code holdMessage}).
   */
  record Report(RestoreState state, String holdReason, String holdMessage) {
    boolean holds() {
      return holdReason != null;
    }

    /** Whether its nodes are loading the backup: resolved, not every node done. */
    boolean loading() {
      return state != null && !state.completed();
    }

    static Report hold(String reason, String message) {
      return new Report(null, reason, message);
    }
  }

  /** The restore of {@code cluster}; null if it is not created from a backup. */
  static Report resolve(KubernetesClient client, DhtCluster cluster) {
    var spec = cluster.getSpec();
    if (spec == null || spec.getBootstrap() == null || spec.getBootstrap().getBackup() == null) {
      return null;
    }
    if (cluster.getStatus() != null && cluster.getStatus().getRestore() != null) {
      return new Report(cluster.getStatus().getRestore(), null, null);
    }
    String claims = keptClaims(client, cluster);
    if (claims != null) {
      return Report.hold(
          "ClaimsExist",
          "the volumes of a cluster of this name are still here ("
              + claims
              + "): its nodes would start on their old data, not on the backup; delete the"
              + " claims, or restore under another name");
    }
    var source = spec.getBootstrap().getBackup();
    if (source.getName() != null) {
      var backup =
          client
              .resources(DhtBackup.class)
              .inNamespace(cluster.getMetadata().getNamespace())
              .withName(source.getName())
              .get();
      if (backup == null) {
        return Report.hold(
            "BackupNotFound",
            "DhtBackup " + source.getName() + " does not exist in this namespace");
      }
      if (backup.getMetadata().getDeletionTimestamp() != null) {
        return Report.hold("BackupNotFound", "DhtBackup " + source.getName() + " is being deleted");
      }
      var status = backup.getStatus();
      if (status == null
          || !DhtBackupStatus.COMPLETED.equals(status.getPhase())
          || status.getObjectStore() == null) {
        return Report.hold(
            "BackupNotCompleted",
            "DhtBackup "
                + source.getName()
                + " is "
                + (status == null || status.getPhase() == null ? "new" : status.getPhase())
                + ": only a completed backup can be restored");
      }
      return checked("DhtBackup " + source.getName(), backup.backupId(), status.getObjectStore());
    }
    return checked("spec.bootstrap.backup", source.getBackupId(), source.getObjectStore());
  }

  /** The source, if the nodes can take it; else a hold that says why not. */
  private static Report checked(String what, String backupId, ObjectStoreSpec store) {
    try {
      BackupWiring.restoreSource(store, backupId);
    } catch (IllegalArgumentException e) {
      return Report.hold("InvalidBackupSource", what + ": " + e.getMessage());
    }
    return new Report(
        RestoreState.builder()
            .backup(backupId)
            .objectStore(store)
            .phase(RestoreState.RESTORING)
            .build(),
        null,
        null);
  }

  /**
   * The claims a deleted cluster of this name left (its nodes' volumes are kept), made before this
   * cluster, or null: a node restores only on an empty volume.
   */
  private static String keptClaims(KubernetesClient client, DhtCluster cluster) {
    String prefix = "data-" + cluster.getMetadata().getName() + "-";
    String created = cluster.getMetadata().getCreationTimestamp();
    var names =
        client
            .persistentVolumeClaims()
            .inNamespace(cluster.getMetadata().getNamespace())
            .list()
            .getItems()
            .stream()
            // older than the cluster: not its own (its StatefulSet's come after it)
            .filter(c ->
                created == null
                    || Instant.parse(c.getMetadata().getCreationTimestamp())
                        .isBefore(Instant.parse(created)))
            .map(c -> c.getMetadata().getName())
            .filter(n -> n.startsWith(prefix) && n.substring(prefix.length()).matches("\\d+"))
            .sorted()
            .toList();
    return names.isEmpty() ? null : String.join(", ", names);
  }

  /**
   * The restore's next state from what the first members report; unchanged once completed, or while
   * no pod runs.
   */
  static Report observe(
      Report report, ClusterModel model, Seen seen, NodeAdmin nodes, NodeAccess access) {
    if (report == null || report.holds() || report.state().completed() || !seen.any()) {
      return report;
    }
    int members = model.membership().getMembers();
    var urls = model.urls(members);
    Map<Integer, RestoreStatus> answers = new TreeMap<>();
    for (int i = 0; i < members; i++) {
      try {
        var answer = nodes.get(urls.get(i), "restore", access, RESTORE);
        if (answer.status() == 200) {
          answers.put(i, RestoreStatus.parse(answer.text()));
        } else if (answer.status() == 404) { // started on a volume with data: it restores nothing
          answers.put(
              i,
              new RestoreStatus(
                  report.state().getBackup(),
                  RestoreStatus.FAILED,
                  0,
                  0,
                  0,
                  0,
                  0,
                  "restores nothing: its volume was not empty when it started"));
        }
      } catch (IOException | IllegalArgumentException e) {
        // no answer (yet): the node starts, or restarts
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return report;
      }
    }
    return new Report(
        RestoreTally.next(report.state(), members, answers, Instant.now()), null, null);
  }

  /**
   * status.restore and the conditions Restored (a cluster created from a backup) and BackupStore (a
   * cluster with spec.backup); {@code report} null keeps what the last status said.
   */
  static void report(
      DhtClusterStatus status, DhtCluster cluster, ClusterModel model, Report report, Instant now) {
    var previous = Optional.ofNullable(cluster.getStatus());
    List<Condition> before = previous.map(DhtClusterStatus::getConditions).orElse(List.of());
    var conditions = new ArrayList<>(status.getConditions());
    if (model.backups().restoreFlag()) {
      if (report == null) {
        status.setRestore(previous.map(DhtClusterStatus::getRestore).orElse(null));
        Conditions.find(before, RESTORED).ifPresent(conditions::add);
      } else {
        status.setRestore(report.state());
        conditions.add(restored(report, before, model.generation(), now));
      }
    }
    if (model.backups().storeProblem() != null) {
      conditions.add(
          Conditions.next(
              before,
              BackupSpec.CONDITION,
              false,
              "InvalidBackupStore",
              model.backups().storeProblem(),
              model.generation(),
              now));
    } else if (model.backups().store() != null) {
      conditions.add(
          Conditions.next(
              before,
              BackupSpec.CONDITION,
              true,
              "Configured",
              "the nodes back up to " + describe(model),
              model.generation(),
              now));
    }
    status.setConditions(conditions);
  }

  private static String describe(ClusterModel model) {
    var store = model.backups().store();
    return (store.endpoint() == null ? "AWS S3" : store.endpoint())
        + ", bucket "
        + store.bucket()
        + ", path "
        + store.prefix();
  }

  private static Condition restored(
      Report report, List<Condition> before, long generation, Instant now) {
    if (report.holds()) {
      return Conditions.next(
          before,
          RESTORED,
          false,
          report.holdReason(),
          report.holdMessage() + "; no node is started until it is",
          generation,
          now);
    }
    var state = report.state();
    if (state.completed()) {
      return Conditions.next(
          before,
          RESTORED,
          true,
          "Restored",
          "every node loaded its share of backup " + state.getBackup(),
          generation,
          now);
    }
    int done = state.getRestored() == null ? 0 : state.getRestored().size();
    return Conditions.next(
        before,
        RESTORED,
        false,
        state.getReason() == null ? "Restoring" : "RestoreRetrying",
        done
            + " of "
            + (state.getNodes() == null ? "the" : state.getNodes())
            + " nodes loaded their share of backup "
            + state.getBackup()
            + (state.getReason() == null ? "" : "; " + state.getReason() + " (tried again)"),
        generation,
        now);
  }
}
