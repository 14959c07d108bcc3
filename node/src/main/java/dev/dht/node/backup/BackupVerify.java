package dev.dht.node.backup;

import dev.dht.contract.backup.ObjectStoreSettings;
import dev.dht.contract.backup.VerifyStatus;
import dev.dht.node.storage.CheckpointReader;
import dev.dht.node.storage.Record;
import dev.dht.node.storage.StorageException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.function.Consumer;
import org.rocksdb.RocksDBException;
import org.rocksdb.Status;

/**
 * Checks that a backup in the store can be restored, without keeping anything: each backed-up
 * member's files in turn are downloaded into a scratch directory, each compared with the SHA-256
 * its manifest recorded when it was uploaded, then its checkpoint is opened and read to its end
 * (RocksDB checks each block's checksum as it reads), each record decoded and its timestamp checked
 * against the manifest's bound. What a restore would read, read the same way. Blocks: run it on the
 * backup thread.
 */
final class BackupVerify {
  private static final int BATCH = 1000;

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
        counts.records += read(manifest);
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

  /** Reads the checkpoint in the scratch directory to its end: its records' count. */
  private long read(NodeManifest manifest) {
    try {
      return CheckpointReader.readData(
          scratch,
          BATCH,
          (keys, records) -> {
            if (Thread.currentThread().isInterrupted()) {
              throw new IllegalStateException("the verification was stopped: the node stops");
            }
            for (Record record : records) {
              if (Long.compareUnsigned(record.timestamp(), manifest.newest()) > 0) {
                throw new BackupDamaged(
                    "the checkpoint of member "
                        + manifest.member()
                        + " holds a record stamped "
                        + Long.toUnsignedString(record.timestamp())
                        + ", after the bound of its manifest, "
                        + Long.toUnsignedString(manifest.newest()));
              }
            }
          });
    } catch (IllegalArgumentException e) { // a record that does not decode
      throw new BackupDamaged(
          "the checkpoint of member " + manifest.member() + " cannot be read: " + e.getMessage(),
          e);
    } catch (StorageException e) {
      if (!damaged(e)) {
        throw e; // this node could not read it (say, out of file handles): says nothing of it
      }
      throw new BackupDamaged(
          "the checkpoint of member " + manifest.member() + " cannot be read: " + e.getMessage(),
          e);
    }
  }

  /** Whether RocksDB found the checkpoint itself wrong, rather than failing to read it here. */
  private static boolean damaged(StorageException e) {
    if (!(e.getCause() instanceof RocksDBException rocks) || rocks.getStatus() == null) {
      return true; // no data column family
    }
    Status status = rocks.getStatus();
    return switch (status.getCode()) {
      case Corruption, NotFound, InvalidArgument, NotSupported -> true;
      // a file the checkpoint's own MANIFEST names is not in it; other I/O errors are this node's
      case IOError -> String.valueOf(status.getState()).contains("No such file");
      default -> false;
    };
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
