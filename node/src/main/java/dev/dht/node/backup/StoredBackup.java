package dev.dht.node.backup;

import dev.dht.contract.backup.BackupSummary;
import dev.dht.contract.backup.ObjectStoreSettings;
import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.LongConsumer;

/**
 * A complete backup as the store holds it, for a restore or a verification: its summary, each
 * member's manifest checked against it, and a member's files downloaded into a scratch directory,
 * each checked against its digest. {@link BackupDamaged} says what is missing or wrong.
 */
final class StoredBackup {
  /** The share of the data volume a download leaves free, at least. */
  static final double MIN_FREE_SHARE = 0.05;

  private final ObjectStore store;
  private final String id;
  private final BackupSummary summary;

  private StoredBackup(ObjectStore store, String id, BackupSummary summary) {
    this.store = store;
    this.id = id;
    this.summary = summary;
  }

  /** Backup {@code id} in {@code store} (of {@code settings}), which must be complete. */
  static StoredBackup open(ObjectStore store, ObjectStoreSettings settings, String id)
      throws IOException {
    String text = store.get(BackupLayout.summary(id), NodeManifest.MAX_BYTES);
    if (text == null) {
      throw new BackupDamaged(
          "backup "
              + id
              + " is not complete in the store (no "
              + settings.key(BackupLayout.summary(id))
              + "): it failed, is still running, or the bucket or prefix is not the right one");
    }
    try {
      return new StoredBackup(store, id, BackupSummary.parse(text));
    } catch (IllegalArgumentException e) {
      throw new BackupDamaged("the summary of backup " + id + " " + e.getMessage(), e);
    }
  }

  BackupSummary summary() {
    return summary;
  }

  int members() {
    return summary.members().size();
  }

  /** The manifest of member {@code m}, checked against the summary. */
  NodeManifest manifest(int m) throws IOException {
    String text = store.get(BackupLayout.manifest(id, m), NodeManifest.MAX_BYTES);
    if (text == null) {
      throw new BackupDamaged("backup " + id + " has no manifest of member " + m);
    }
    NodeManifest manifest;
    try {
      manifest = NodeManifest.parse(text);
    } catch (IllegalArgumentException e) {
      throw new BackupDamaged("the manifest of member " + m + " of backup " + id + " " + e, e);
    }
    if (manifest.member() != m
        || !manifest.backup().equals(id)
        || manifest.epoch() != summary.epoch()
        || !manifest.members().equals(summary.members())) {
      throw new BackupDamaged(
          "the manifest of member " + m + " of backup " + id + " does not match its summary");
    }
    return manifest;
  }

  /**
   * {@code manifest}'s files into {@code scratch} (emptied first), through {@code pacer}, each
   * checked against its size and digest; {@code downloaded} gets each file's bytes. Refused with an
   * IOException if they would leave less than {@link #MIN_FREE_SHARE} of the volume free: the
   * scratch directory is on a node's data volume, which its database needs.
   */
  void download(NodeManifest manifest, Path scratch, TransferPacer pacer, LongConsumer downloaded)
      throws IOException {
    Checkpoints.delete(scratch);
    Files.createDirectories(scratch);
    FileStore volume = Files.getFileStore(scratch);
    long left = volume.getUsableSpace() - manifest.bytes();
    if (left < volume.getTotalSpace() * MIN_FREE_SHARE) {
      throw new IOException(
          "not enough free space for member "
              + manifest.member()
              + "'s checkpoint ("
              + manifest.bytes()
              + " bytes): "
              + volume.getUsableSpace()
              + " bytes free on the data volume, and "
              + Math.round(MIN_FREE_SHARE * 100)
              + " % of it must stay free");
    }
    for (NodeManifest.File file : manifest.files()) {
      Path target = scratch.resolve(file.name());
      String object = BackupLayout.file(file.sha256());
      long stored = store.size(object);
      if (stored != file.size()) {
        throw new BackupDamaged(
            "file "
                + file.name()
                + " of member "
                + manifest.member()
                + (stored < 0
                    ? " is missing from the store ("
                    : " has " + stored + " bytes in the store, not " + file.size() + " (")
                + object
                + ")");
      }
      store.download(object, target, pacer);
      if (Files.size(target) != file.size() || !FileDigests.sha256(target).equals(file.sha256())) {
        throw new BackupDamaged(
            "file "
                + file.name()
                + " of member "
                + manifest.member()
                + " is corrupt in the store: its content does not match its digest");
      }
      downloaded.accept(file.size());
    }
  }
}
