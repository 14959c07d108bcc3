package dev.dht.node.backup;

import dev.dht.contract.backup.BackupSummary;
import dev.dht.node.cluster.Topology;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Completes a backup once every member took its part: each member of the current membership has a
 * manifest of this epoch, and every file any manifest lists is in the store at its size. Only then
 * is the summary written, so a backup that has one never lists a file the store lacks; a member
 * missing, or a membership changed meanwhile, fails it with the reason.
 */
final class BackupSeal {
  private BackupSeal() {}

  static BackupSummary seal(ObjectStore store, String id, Topology topology) throws IOException {
    String existing = store.get(BackupLayout.summary(id), NodeManifest.MAX_BYTES);
    if (existing != null) {
      return BackupSummary.parse(existing);
    }
    List<NodeManifest> manifests = new ArrayList<>();
    for (int m = 0; m < topology.size(); m++) {
      String text = store.get(BackupLayout.manifest(id, m), NodeManifest.MAX_BYTES);
      if (text == null) {
        throw new IllegalStateException(
            "member " + topology.member(m) + " has no manifest in backup " + id);
      }
      NodeManifest manifest = NodeManifest.parse(text);
      if (manifest.epoch() != topology.epoch() || !manifest.members().equals(topology.members())) {
        throw new IllegalStateException(
            "the membership changed during backup "
                + id
                + ": member "
                + m
                + "'s checkpoint is of epoch "
                + manifest.epoch()
                + ", the cluster is at epoch "
                + topology.epoch());
      }
      manifests.add(manifest);
    }
    Map<String, Long> files = new LinkedHashMap<>();
    for (NodeManifest manifest : manifests) {
      for (NodeManifest.File file : manifest.files()) {
        files.put(file.sha256(), file.size());
      }
    }
    for (var file : files.entrySet()) {
      long size = store.size(BackupLayout.file(file.getKey()));
      if (size != file.getValue()) {
        throw new IllegalStateException(
            "file "
                + file.getKey()
                + " of backup "
                + id
                + (size < 0 ? " is not in the store" : " has " + size + " bytes in the store")
                + ", its manifest says "
                + file.getValue());
      }
    }
    List<String> zones =
        topology.zones().stream().allMatch(Objects::isNull) ? null : topology.zones();
    BackupSummary summary =
        new BackupSummary(
            BackupSummary.format(zones),
            id,
            topology.epoch(),
            topology.members(),
            manifests.getFirst().from(),
            manifests.stream().mapToLong(NodeManifest::cut).min().orElseThrow(),
            manifests.stream().mapToLong(NodeManifest::newest).max().orElseThrow(),
            System.currentTimeMillis(),
            files.size(),
            files.values().stream().mapToLong(Long::longValue).sum(),
            manifests.stream().mapToInt(NodeManifest::filesUploaded).sum(),
            manifests.stream().mapToLong(NodeManifest::bytesUploaded).sum(),
            zones);
    store.put(BackupLayout.summary(id), summary.toJson());
    return summary;
  }
}
