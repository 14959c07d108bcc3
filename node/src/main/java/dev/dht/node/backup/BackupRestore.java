package dev.dht.node.backup;

import dev.dht.contract.backup.BackupSummary;
import dev.dht.contract.backup.RestoreSource;
import dev.dht.contract.backup.RestoreStatus;
import dev.dht.node.cluster.Ring;
import dev.dht.node.cluster.Topology;
import dev.dht.node.storage.CheckpointReader;
import dev.dht.node.storage.Record;
import dev.dht.node.storage.Storage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Loads this node's share of a complete backup: every backed-up member's checkpoint in turn is
 * downloaded into a scratch directory (each file checked against its digest), read, and each key
 * that member owned when backed up and this node owns in the new cluster's placement stored unless
 * a newer version of it is there already. The old members' copies of a key thus merge, newest
 * version wins, tombstones included; so a backup restores into a cluster of any size and
 * replication. Blocks: run it on the backup thread.
 */
final class BackupRestore {
  private static final int BATCH = 1000;

  private final Storage storage;
  private final Topology topology;
  private final Path scratch;
  private final Consumer<RestoreStatus> progress;

  BackupRestore(
      Storage storage, Topology topology, Path scratch, Consumer<RestoreStatus> progress) {
    this.storage = storage;
    this.topology = topology;
    this.scratch = scratch;
    this.progress = progress;
  }

  RestoreStatus run(RestoreSource source) throws IOException {
    String id = source.backup();
    try (ObjectStore store = ObjectStore.open(source.store())) {
      StoredBackup backup = StoredBackup.open(store, source.store(), id);
      BackupSummary summary = backup.summary();
      int from = topology.currentReplication().from();
      Ring backedUp = new Ring(summary.members(), summary.memberZones());
      int self = topology.selfIndex();
      Counts counts = new Counts(id, backup.members());
      progress.accept(counts.status(RestoreStatus.RESTORING));
      for (int m = 0; m < backup.members(); m++) {
        backup.download(
            backup.manifest(m),
            scratch,
            TransferPacer.of(0), // the node serves nothing yet
            bytes -> {
              counts.bytesDownloaded += bytes;
              progress.accept(counts.status(RestoreStatus.RESTORING));
            });
        int member = m;
        CheckpointReader.readData(
            scratch,
            BATCH,
            (keys, records) -> {
              List<byte[]> ownKeys = new ArrayList<>(keys.size());
              List<Record> ownRecords = new ArrayList<>(keys.size());
              for (int i = 0; i < keys.size(); i++) {
                // only the copies the member owned when backed up: one it kept past a change of
                // membership (not cleaned up yet) may be older than a delete purged since
                if (owns(backedUp.replicas(keys.get(i), summary.from()), member)
                    && owns(topology.replicas(keys.get(i), from), self)) {
                  ownKeys.add(keys.get(i));
                  ownRecords.add(records.get(i));
                }
              }
              if (!ownKeys.isEmpty()) {
                storage.restoreAllIfNewer(ownKeys, ownRecords);
              }
              counts.keysRead += keys.size();
              counts.keysKept += ownKeys.size();
            });
        counts.membersRead++;
        progress.accept(counts.status(RestoreStatus.RESTORING));
      }
      return counts.status(RestoreStatus.COMPLETED);
    } finally {
      Checkpoints.delete(scratch);
    }
  }

  private static boolean owns(int[] replicas, int self) {
    for (int r : replicas) {
      if (r == self) {
        return true;
      }
    }
    return false;
  }

  private static final class Counts {
    final String backup;
    final int membersTotal;
    int membersRead;
    long bytesDownloaded;
    long keysRead;
    long keysKept;

    Counts(String backup, int membersTotal) {
      this.backup = backup;
      this.membersTotal = membersTotal;
    }

    RestoreStatus status(String phase) {
      return new RestoreStatus(
          backup, phase, membersRead, membersTotal, bytesDownloaded, keysRead, keysKept, null);
    }
  }
}
