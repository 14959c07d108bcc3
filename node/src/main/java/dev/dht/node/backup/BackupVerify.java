package dev.dht.node.backup;

import dev.dht.contract.backup.ObjectStoreSettings;
import dev.dht.contract.backup.VerifyStatus;
import dev.dht.node.storage.CheckpointReader;
import dev.dht.node.storage.StorageException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * Checks that a backup in the store can be restored, without keeping anything: each backed-up
 * member's files in turn are downloaded into a scratch directory (each checked against its digest),
 * its checkpoint opened and read to its end, and its records' digest compared with the one its
 * manifest recorded when the backup was taken. What a restore would read, read the same way.
 * Blocks: run it on the backup thread.
 */
final class BackupVerify {
  private final Path scratch;
  private final Consumer<VerifyStatus> progress;

  BackupVerify(Path scratch, Consumer<VerifyStatus> progress) {
    this.scratch = scratch;
    this.progress = progress;
  }

  /**
   * Checks backup {@code id} in {@code settings}' store: the final status, {@code passed} or {@code
   * failed} ({@link BackupDamaged}); other exceptions (the store unreachable) end it in error.
   */
  VerifyStatus run(String id, ObjectStoreSettings settings, long startedMillis) throws IOException {
    var counts = new Counts(id, startedMillis);
    try (ObjectStore store = ObjectStore.open(settings)) {
      StoredBackup backup = StoredBackup.open(store, settings, id);
      counts.membersTotal = backup.members();
      progress.accept(counts.status());
      TransferPacer pacer = TransferPacer.of(settings.uploadBytesPerSecond());
      for (int m = 0; m < backup.members(); m++) {
        NodeManifest manifest = backup.manifest(m);
        backup.download(
            manifest,
            scratch,
            pacer,
            bytes -> {
              counts.filesChecked++;
              counts.bytesDownloaded += bytes;
              progress.accept(counts.status());
            });
        CheckpointReader.Digest read = read(manifest);
        counts.records += read.records();
        NodeManifest.Content taken = manifest.content();
        if (taken != null
            && (taken.records() != read.records() || !taken.sha256().equals(read.sha256()))) {
          throw new BackupDamaged(
              "the checkpoint of member "
                  + m
                  + " reads back "
                  + read.records()
                  + " records that differ from the "
                  + taken.records()
                  + " it held when backed up (digest "
                  + read.sha256()
                  + ", not "
                  + taken.sha256()
                  + ")");
        }
        counts.membersChecked++;
        progress.accept(counts.status());
      }
      return counts.status().ended(VerifyStatus.PASSED, System.currentTimeMillis(), null);
    } catch (BackupDamaged e) {
      return counts.status().ended(VerifyStatus.FAILED, System.currentTimeMillis(), e.getMessage());
    } finally {
      Checkpoints.delete(scratch);
    }
  }

  private CheckpointReader.Digest read(NodeManifest manifest) {
    try {
      return CheckpointReader.digest(scratch);
    } catch (StorageException e) {
      throw new BackupDamaged(
          "the checkpoint of member " + manifest.member() + " cannot be read: " + e.getMessage(),
          e);
    }
  }

  private static final class Counts {
    final String backup;
    final long startedMillis;
    int membersChecked;
    int membersTotal;
    int filesChecked;
    long bytesDownloaded;
    long records;

    Counts(String backup, long startedMillis) {
      this.backup = backup;
      this.startedMillis = startedMillis;
    }

    VerifyStatus status() {
      return new VerifyStatus(
          backup,
          VerifyStatus.RUNNING,
          startedMillis,
          0,
          membersChecked,
          membersTotal,
          filesChecked,
          bytesDownloaded,
          records,
          null);
    }
  }
}
