package dev.dht.operator.backup.controller;

import dev.dht.contract.AdminStatus;
import dev.dht.operator.backup.BackupPhases;
import dev.dht.operator.backup.BackupSpec;
import dev.dht.operator.backup.ObjectStoreSpec;
import dev.dht.operator.cluster.DhtCluster;
import dev.dht.operator.cluster.DhtClusterStatus;
import dev.dht.operator.cluster.ObservedNode;
import dev.dht.operator.cluster.Transport;
import dev.dht.operator.kube.Conditions;
import dev.dht.operator.scaling.Membership;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Whether a DhtCluster can be backed up now, judged from what its reconciler last reported (its
 * status): it exists, has spec.backup, has applied its spec, every node is Ready, answered at the
 * same membership epoch and serves reads, and nothing changes (no scale, roll or replacement:
 * Progressing is False, the membership is stable). A node also refuses a backup while the
 * membership changes; this only keeps a backup from starting into a certain refusal. Pure.
 */
final class ClusterReadiness {
  private ClusterReadiness() {}

  /** What the judgement says: ready, with what the backup needs, or why to wait. */
  sealed interface Verdict {}

  /**
   * Ready: the members' URLs by ordinal, how to reach them, and the store with its path resolved.
   */
  record Ready(List<String> members, Transport transport, ObjectStoreSpec store)
      implements Verdict {}

  /** Not now: {@code reason} in one word ({@link BackupPhases}), {@code message} in words. */
  record Wait(String reason, String message) implements Verdict {}

  /** The judgement on {@code cluster} (null: not found), named {@code name}. */
  static Verdict of(DhtCluster cluster, String name) {
    if (cluster == null) {
      return new Wait(
          BackupPhases.CLUSTER_NOT_FOUND,
          "DhtCluster " + name + " does not exist in this namespace");
    }
    var backup = cluster.getSpec() == null ? null : cluster.getSpec().getBackup();
    if (backup == null || backup.getObjectStore() == null) {
      return new Wait(
          BackupPhases.NO_BACKUP_STORE,
          "DhtCluster " + name + " has no spec.backup: set its object store to take backups");
    }
    var storeCondition =
        cluster.getStatus() == null
            ? Optional.<Condition>empty()
            : Conditions.find(cluster.getStatus().getConditions(), BackupSpec.CONDITION);
    if (storeCondition.filter(c -> Conditions.FALSE.equals(c.getStatus())).isPresent()) {
      return new Wait(
          BackupPhases.NO_BACKUP_STORE,
          "DhtCluster "
              + name
              + "'s spec.backup cannot be used: "
              + storeCondition.get().getReason()
              + " ("
              + storeCondition.get().getMessage()
              + ")");
    }
    String busy = busy(cluster);
    if (busy != null) {
      return new Wait(BackupPhases.CLUSTER_BUSY, "DhtCluster " + name + " " + busy);
    }
    var status = cluster.getStatus();
    var store =
        backup.getObjectStore().toBuilder()
            .path(backup.pathOrDefault(cluster.getMetadata().getNamespace(), name))
            .build();
    return new Ready(
        List.copyOf(status.getMembers()),
        Objects.requireNonNullElse(status.getTransport(), Transport.Plain),
        store);
  }

  /** Why the cluster cannot be backed up now, or null if it can. */
  static String busy(DhtCluster cluster) {
    DhtClusterStatus status = cluster.getStatus();
    if (status == null || status.getMembers() == null || status.getMembers().isEmpty()) {
      return "has no running members yet";
    }
    Long generation = cluster.getMetadata().getGeneration();
    if (generation != null && !generation.equals(status.getObservedGeneration())) {
      return "has a change of its spec not applied yet (generation "
          + generation
          + ", applied "
          + status.getObservedGeneration()
          + ")";
    }
    var conditions = status.getConditions();
    if (!Conditions.isTrue(conditions, Conditions.READY)) {
      return "is not Ready: " + message(conditions, Conditions.READY);
    }
    if (Conditions.isTrue(conditions, Conditions.PROGRESSING)) {
      return "is changing: " + message(conditions, Conditions.PROGRESSING);
    }
    var membership = status.getMembership();
    if (membership != null && membership.getStep() != Membership.Step.STABLE) {
      return "is changing its membership (" + membership.getStep() + ")";
    }
    int members = status.getMembers().size();
    var nodes = status.getNodes() == null ? List.<ObservedNode>of() : status.getNodes();
    if (nodes.size() < members) {
      return "reports " + nodes.size() + " nodes for " + members + " members";
    }
    for (int i = 0; i < members; i++) {
      var node = nodes.get(i);
      if (!node.isReady() || node.getEpoch() < 0) {
        return "has node " + node.getName() + " not Ready or not answering";
      }
      if (membership != null && node.getEpoch() != membership.getEpoch()) {
        return "has node "
            + node.getName()
            + " at membership epoch "
            + node.getEpoch()
            + ", not "
            + membership.getEpoch();
      }
      if (node.getDataPhase() != null
          && !AdminStatus.Bootstrap.SERVING.equals(node.getDataPhase())) {
        return "has node " + node.getName() + " not serving yet (" + node.getDataPhase() + ")";
      }
    }
    return null;
  }

  private static String message(List<Condition> all, String type) {
    return Conditions.find(all, type)
        .map(c -> c.getReason() + (c.getMessage() == null ? "" : " (" + c.getMessage() + ")"))
        .orElse("not reported yet");
  }
}
