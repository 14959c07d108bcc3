package dev.dht.node.backup;

import dev.dht.contract.backup.NodeBackupStatus;
import dev.dht.contract.backup.ObjectStoreSettings;
import dev.dht.node.cluster.Topology;
import dev.dht.node.storage.Storage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * One member's part of one backup: a checkpoint of its database, the checkpoint's files that the
 * store does not hold yet uploaded (by content digest, so a file any earlier backup uploaded is
 * reused), then its manifest, written only once every file it lists is in the store. The checkpoint
 * is deleted at the end, whatever happened.
 */
final class BackupRun {
  private final String id;
  private final Storage storage;
  private final Topology topology;
  private final long cut;
  private final Path checkpointDir;
  private final FileDigests digests;
  private final Consumer<NodeBackupStatus> progress;

  /**
   * {@code cut}: a hybrid-clock timestamp taken when the backup was asked for; {@code progress}
   * receives the status as it changes.
   */
  BackupRun(
      String id,
      Storage storage,
      Topology topology,
      long cut,
      Path checkpointDir,
      FileDigests digests,
      Consumer<NodeBackupStatus> progress) {
    this.id = id;
    this.storage = storage;
    this.topology = topology;
    this.cut = cut;
    this.checkpointDir = checkpointDir;
    this.digests = digests;
    this.progress = progress;
  }

  /** Runs the backup to {@code settings}' store; the final status. */
  NodeBackupStatus run(ObjectStoreSettings settings, long startedMillis) throws IOException {
    Progress p = new Progress(startedMillis);
    Checkpoints.delete(checkpointDir);
    try (ObjectStore store = ObjectStore.open(settings)) {
      if (store.size(BackupLayout.summary(id)) >= 0) {
        throw new IllegalStateException(
            "backup " + id + " is complete in the store already: a new backup needs a new id");
      }
      long newest = storage.checkpoint(checkpointDir);
      p.newest = newest;
      List<Path> files = files();
      digests.keepOnly(Set.copyOf(files));
      p.filesTotal = files.size();
      progress.accept(p.status(NodeBackupStatus.RUNNING, null));
      TransferPacer pacer = TransferPacer.of(settings.uploadBytesPerSecond());
      List<NodeManifest.File> listed = new ArrayList<>();
      for (Path file : files) {
        String sha = digests.of(file);
        long size = Files.size(file);
        String object = BackupLayout.file(sha);
        if (store.size(object) == size) {
          p.filesReused++;
          p.bytesReused += size;
        } else {
          store.upload(object, file, pacer);
          p.filesUploaded++;
          p.bytesUploaded += size;
        }
        listed.add(new NodeManifest.File(file.getFileName().toString(), sha, size));
        progress.accept(p.status(NodeBackupStatus.RUNNING, null));
      }
      NodeManifest manifest =
          new NodeManifest(
              NodeManifest.FORMAT,
              id,
              topology.selfIndex(),
              topology.epoch(),
              topology.members(),
              topology.currentReplication().from(),
              cut,
              newest,
              System.currentTimeMillis(),
              listed,
              p.filesUploaded,
              p.bytesUploaded);
      store.put(BackupLayout.manifest(id, topology.selfIndex()), manifest.toJson());
      return p.status(NodeBackupStatus.COMPLETED, null);
    } finally {
      Checkpoints.delete(checkpointDir);
    }
  }

  /** The checkpoint's regular files, by name. */
  private List<Path> files() throws IOException {
    try (Stream<Path> all = Files.list(checkpointDir)) {
      return new ArrayList<>(new TreeSet<>(all.filter(Files::isRegularFile).toList()));
    }
  }

  /** The counters of a run so far. */
  private final class Progress {
    final long startedMillis;
    long newest;
    int filesTotal;
    int filesUploaded;
    int filesReused;
    long bytesUploaded;
    long bytesReused;

    Progress(long startedMillis) {
      this.startedMillis = startedMillis;
    }

    NodeBackupStatus status(String phase, String reason) {
      return new NodeBackupStatus(
          id,
          phase,
          startedMillis,
          phase.equals(NodeBackupStatus.RUNNING) ? 0 : System.currentTimeMillis(),
          cut,
          newest,
          filesTotal,
          filesUploaded,
          filesReused,
          bytesUploaded,
          bytesReused,
          reason);
    }
  }
}
