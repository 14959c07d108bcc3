package dev.dht.operator.backup.controller;

import dev.dht.operator.backup.BackupPhases;
import dev.dht.operator.backup.DhtBackup;
import dev.dht.operator.backup.Verifications;
import dev.dht.operator.backup.Verifications.Step;
import dev.dht.operator.cluster.AdminAccess;
import dev.dht.operator.cluster.DhtCluster;
import dev.dht.operator.cluster.Transport;
import dev.dht.operator.scaling.NodeAccess;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Instant;
import java.util.Objects;

/**
 * Verifies a completed backup on one node of its cluster: to start, the lowest Ready member of a
 * cluster that backs up to the backup's store ({@link ClusterReadiness#verifier}) is asked ({@code
 * POST /v0/admin/backup/verify?id=<name>}); a running check is followed on the node that runs it
 * ({@code GET /v0/admin/backup/verify}). What the answers make of the status is {@link
 * Verifications}'; this class only asks.
 */
final class BackupVerifier {
  private final BackupNodes nodes;

  BackupVerifier(BackupNodes nodes) {
    this.nodes = nodes;
  }

  /** The verification that {@code need} leads to for {@code backup} of {@code cluster}. */
  Step step(
      DhtBackup backup, DhtCluster cluster, KubernetesClient client, Verifications.Need need) {
    return switch (need) {
      case Verifications.Nothing n -> new Step(backup.getStatus().getVerification(), null);
      case Verifications.Drop d -> new Step(null, null);
      case Verifications.Start s -> start(backup, cluster, client);
      case Verifications.Follow(int node) -> follow(backup, cluster, client, node);
    };
  }

  private Step start(DhtBackup backup, DhtCluster cluster, KubernetesClient client) {
    var verdict =
        ClusterReadiness.verifier(
            cluster, backup.clusterName(), backup.getStatus().getObjectStore());
    return switch (verdict) {
      case ClusterReadiness.Verifier(int ordinal, String url, Transport transport) ->
          Verifications.started(
              backup,
              ordinal,
              nodes.verify(url, access(backup, client, transport), backup.backupId()),
              Instant.now());
      case ClusterReadiness.Wait(String reason, String message) ->
          Verifications.waiting(backup, reason, message, Verifications.WAIT_PERIOD);
      case ClusterReadiness.Ready r -> throw new IllegalStateException("not a verifier: " + r);
    };
  }

  private Step follow(DhtBackup backup, DhtCluster cluster, KubernetesClient client, int node) {
    if (cluster == null) {
      return Verifications.waiting(
          backup,
          BackupPhases.CLUSTER_NOT_FOUND,
          "DhtCluster " + backup.clusterName() + " was deleted during the verification",
          Verifications.WAIT_PERIOD);
    }
    var status = cluster.getStatus();
    var members = status == null ? null : status.getMembers();
    if (members == null || node >= members.size()) {
      return Verifications.waiting(
          backup,
          BackupPhases.CLUSTER_BUSY,
          "node " + node + " that verified the backup is no member of the cluster now",
          Verifications.WAIT_PERIOD);
    }
    var transport = Objects.requireNonNullElse(status.getTransport(), Transport.Plain);
    return Verifications.followed(
        backup.getStatus().getVerification(),
        backup.backupId(),
        nodes.verification(members.get(node), access(backup, client, transport)));
  }

  private static NodeAccess access(DhtBackup backup, KubernetesClient client, Transport transport) {
    return AdminAccess.of(
        client, backup.getMetadata().getNamespace(), backup.clusterName(), transport);
  }
}
