package dev.dht.operator.backup.controller;

import dev.dht.contract.AdminStatus;
import dev.dht.operator.backup.BackupEvents;
import dev.dht.operator.backup.BackupPhases;
import dev.dht.operator.backup.BackupSpec;
import dev.dht.operator.backup.ObjectStoreSpec;
import dev.dht.operator.backup.Verifications;
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

  /** The node to verify a backup on: the lowest ordinal that is Ready, its URL, how to reach it. */
  record Verifier(int ordinal, String url, Transport transport) implements Verdict {}

  /** The judgement on {@code cluster} (null: not found), named {@code name}. */
  static Verdict of(DhtCluster cluster, String name) {
    Wait unusable = unusable(cluster, name);
    if (unusable != null) {
      return unusable;
    }
    String busy = busy(cluster);
    if (busy != null) {
      return new Wait(BackupPhases.CLUSTER_BUSY, "DhtCluster " + name + " " + busy);
    }
    var status = cluster.getStatus();
    return new Ready(
        List.copyOf(status.getMembers()),
        Objects.requireNonNullElse(status.getTransport(), Transport.Plain),
        store(cluster, name));
  }

  /**
   * Where a backup in {@code backupStore} can be verified in {@code cluster} (null: not found),
   * named {@code name}: on its lowest Ready member, if its spec.backup names the same store (its
   * nodes read backups only there); else why to wait.
   */
  static Verdict verifier(DhtCluster cluster, String name, ObjectStoreSpec backupStore) {
    Wait unusable = unusable(cluster, name);
    if (unusable != null) {
      return unusable;
    }
    var current = store(cluster, name);
    if (!ObjectStoreSpec.sameObjects(current, backupStore)) {
      return new Wait(
          Verifications.STORE_CHANGED,
          "DhtCluster "
              + name
              + " backs up to "
              + BackupEvents.where(current)
              + " now, and its nodes read backups only there; this backup is in "
              + BackupEvents.where(backupStore));
    }
    var status = cluster.getStatus();
    var members = status == null ? null : status.getMembers();
    var nodes =
        status == null || status.getNodes() == null ? List.<ObservedNode>of() : status.getNodes();
    for (int i = 0; members != null && i < Math.min(members.size(), nodes.size()); i++) {
      var node = nodes.get(i);
      boolean serving =
          node.getDataPhase() == null || AdminStatus.Bootstrap.SERVING.equals(node.getDataPhase());
      if (node.isReady() && node.getEpoch() >= 0 && serving) {
        return new Verifier(
            i, members.get(i), Objects.requireNonNullElse(status.getTransport(), Transport.Plain));
      }
    }
    return new Wait(
        BackupPhases.CLUSTER_BUSY,
        "DhtCluster " + name + " has no Ready member to verify the backup on");
  }

  /** Why {@code cluster} cannot be used for backups at all (gone, no usable store), or null. */
  private static Wait unusable(DhtCluster cluster, String name) {
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
    return null;
  }

  /** The cluster's store, its path resolved (the cluster has spec.backup). */
  private static ObjectStoreSpec store(DhtCluster cluster, String name) {
    var backup = cluster.getSpec().getBackup();
    return backup.getObjectStore().toBuilder()
        .path(backup.pathOrDefault(cluster.getMetadata().getNamespace(), name))
        .build();
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
