package dev.dht.operator.cluster;

import dev.dht.contract.backup.ObjectStoreSettings;
import dev.dht.contract.backup.RestoreSource;
import dev.dht.operator.backup.BackupSpec;
import dev.dht.operator.backup.ObjectStoreSpec;
import dev.dht.operator.backup.RestoreState;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a cluster's nodes get of backups: the object store of spec.backup, and for a cluster created
 * from a backup the backup to restore (until every node loaded its share), each as a JSON file of
 * the ConfigMap that the nodes re-read, with the store's credentials Secret mounted (by the
 * kubelet; the operator never reads it). Pure.
 *
 * @param store the nodes' store settings; null without spec.backup
 * @param storeSecret the credentials Secret of spec.backup's store; null for the pods' default
 *     chain
 * @param restoreFlag whether the nodes take the restore file's flag (spec.bootstrap.backup)
 * @param restore the backup to restore while not every node has; null otherwise
 * @param restoreSecret the credentials Secret of the store restored from; null for none
 * @param storeProblem why spec.backup cannot be used (then no store); null if it can
 */
record BackupWiring(
    ObjectStoreSettings store,
    String storeSecret,
    boolean restoreFlag,
    RestoreSource restore,
    String restoreSecret,
    String storeProblem) {
  static final String STORE_KEY = "backup-store.json";
  static final String RESTORE_KEY = "restore.json";
  static final String STORE_CREDENTIALS_DIR = "/etc/dht-backup-store";
  static final String RESTORE_CREDENTIALS_DIR = "/etc/dht-restore-store";

  static final BackupWiring NONE = new BackupWiring(null, null, false, null, null, null);

  /**
   * From the spec and the restore the status records ({@code restore}: null until the source is
   * resolved; the reconciler holds the nodes back until it is).
   */
  static BackupWiring of(
      BackupSpec backup,
      boolean bootstrapsFromBackup,
      RestoreState restore,
      String namespace,
      String cluster) {
    ObjectStoreSettings store = null;
    String storeSecret = null;
    String problem = null;
    if (backup != null && backup.getObjectStore() != null) {
      var spec = backup.getObjectStore();
      storeSecret = spec.getCredentialsSecret();
      try {
        store =
            spec.settings(
                backup.pathOrDefault(namespace, cluster),
                STORE_CREDENTIALS_DIR,
                backup.getUploadBytesPerSecond() == null
                    ? BackupSpec.DEFAULT_UPLOAD_BYTES_PER_SECOND
                    : backup.getUploadBytesPerSecond());
      } catch (IllegalArgumentException e) { // what the CRD's patterns let through (a ".." path)
        problem = "spec.backup.objectStore: " + e.getMessage();
      }
    }
    return new BackupWiring(store, storeSecret, bootstrapsFromBackup, null, null, problem)
        .withRestore(restore);
  }

  /** This wiring restoring from {@code restore} (the resolved source; null: none yet). */
  BackupWiring withRestore(RestoreState restore) {
    if (!restoreFlag || restore == null || restore.getObjectStore() == null) {
      return new BackupWiring(store, storeSecret, restoreFlag, null, null, storeProblem);
    }
    ObjectStoreSpec from = restore.getObjectStore();
    RestoreSource source = restore.completed() ? null : restoreSource(from, restore.getBackup());
    return new BackupWiring(
        store, storeSecret, restoreFlag, source, from.getCredentialsSecret(), storeProblem);
  }

  /**
   * What the nodes read to restore backup {@code id} from {@code store} (at its path, reading the
   * keys from the restore's credentials mount); IllegalArgumentException if they would refuse it.
   */
  static RestoreSource restoreSource(ObjectStoreSpec store, String id) {
    return new RestoreSource(store.settings(store.getPath(), RESTORE_CREDENTIALS_DIR, 0), id);
  }

  /** The ConfigMap's files of this wiring, by key: none for a cluster without backups. */
  Map<String, String> files() {
    var files = new LinkedHashMap<String, String>();
    if (store != null) {
      files.put(STORE_KEY, store.toJson());
    }
    if (restore != null) {
      files.put(RESTORE_KEY, restore.toJson());
    }
    return files;
  }

  /**
   * The store file's path in a pod; null without spec.backup. A spec.backup the nodes would refuse
   * keeps the flag (and the mount) but has no file: fixing it restarts nothing.
   */
  String storeFile() {
    return store == null && storeProblem == null ? null : ClusterModel.CONFIG_DIR + "/" + STORE_KEY;
  }

  /** The restore file's path in a pod, kept after the restore (the node then finds it missing). */
  String restoreFile() {
    return restoreFlag ? ClusterModel.CONFIG_DIR + "/" + RESTORE_KEY : null;
  }
}
