package dev.dht.node.backup;

import dev.dht.contract.backup.BackupIds;
import dev.dht.contract.backup.BackupSummary;
import dev.dht.contract.backup.NodeBackupStatus;
import dev.dht.contract.backup.ObjectStoreSettings;
import dev.dht.contract.backup.RestoreSource;
import dev.dht.contract.backup.RestoreStatus;
import dev.dht.contract.backup.VerifyStatus;
import dev.dht.node.bootstrap.DataState;
import dev.dht.node.cluster.ClusterState;
import dev.dht.node.storage.Storage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node's backups, verifications and restore, on threads of their own (uploads and downloads block
 * for minutes; no event loop or storage worker waits for them). The transfers share one thread: one
 * backup or verification at a time, and at start, on a new cluster's node, the restore of a backup,
 * which it retries until it succeeds. Short work on the store (a backup's completion, {@link
 * #seal}; deleting a backup; collecting files) has a second thread, so that it never waits behind a
 * transfer. The owner of both threads.
 */
public final class NodeBackups implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(NodeBackups.class);
  private static final long RESTORE_RETRY_MS = 30_000;

  /** Present in the data directory while a restore is not complete. */
  static final String RESTORE_MARKER = "RESTORE-INCOMPLETE";

  private static final String CHECKPOINT = "backup-checkpoint";
  private static final String VERIFY_SCRATCH = "verify-scratch";

  /** The shortest grace of a collection of unreferenced files. */
  static final Duration MIN_GRACE = Duration.ofMinutes(10);

  private final Path dataDir;
  private final Path storeFile;
  private final Storage storage;
  private final ClusterState cluster;
  private final DataState data;
  private final LongSupplier clock;
  private final FileDigests digests = new FileDigests();
  private final ExecutorService thread =
      Executors.newSingleThreadExecutor(
          r -> Thread.ofPlatform().daemon().name("dht-backup").unstarted(r));
  private final ExecutorService upkeep =
      Executors.newSingleThreadExecutor(
          r -> Thread.ofPlatform().daemon().name("dht-backup-upkeep").unstarted(r));
  private volatile NodeBackupStatus backup;
  private volatile RestoreStatus restore;
  private volatile VerifyStatus verify;
  private volatile boolean closed;

  /**
   * {@code storeFile}: the object store settings (null: the node takes no backups); {@code clock}:
   * the hybrid clock, for each backup's cut.
   */
  public NodeBackups(
      Path dataDir,
      Path storeFile,
      Storage storage,
      ClusterState cluster,
      DataState data,
      LongSupplier clock) {
    this.dataDir = dataDir;
    this.storeFile = storeFile;
    this.storage = storage;
    this.cluster = cluster;
    this.data = data;
    this.clock = clock;
    try { // left by a backup or a verification the node died in
      Checkpoints.delete(dataDir.resolve(CHECKPOINT));
      Checkpoints.delete(dataDir.resolve(VERIFY_SCRATCH));
    } catch (IOException e) {
      log.warn("cannot delete an old backup checkpoint: {}", e.toString());
    }
  }

  /**
   * Whether a node starting on {@code dataDir} restores: on an empty directory, or one whose
   * restore did not complete. Blocking: for start-up.
   */
  public static boolean mustRestore(Path dataDir, boolean empty) {
    return empty || restoreUnfinished(dataDir);
  }

  /** Whether a restore began on {@code dataDir} and did not finish. Blocking: for start-up. */
  public static boolean restoreUnfinished(Path dataDir) {
    return Files.exists(dataDir.resolve(RESTORE_MARKER));
  }

  /** Forgets an unfinished restore (its data is then pulled from the peers). */
  public static void forgetRestore(Path dataDir) throws IOException {
    Files.deleteIfExists(dataDir.resolve(RESTORE_MARKER));
  }

  /** Marks the restore begun (a restart restores again). Blocking: for start-up. */
  public static void markRestoring(Path dataDir) throws IOException {
    Files.createDirectories(dataDir);
    Files.writeString(
        dataDir.resolve(RESTORE_MARKER), "this node has not finished restoring its backup\n");
  }

  /** Starts backup {@code id}; a refusal's reason if it cannot start (null: started). */
  public synchronized String start(String id) {
    BackupIds.require(id);
    if (storeFile == null) {
      return "this node has no object store settings (--backup-store-file): it takes no backups";
    }
    NodeBackupStatus current = backup;
    if (current != null
        && current.backup().equals(id)
        && !current.phase().equals(NodeBackupStatus.FAILED)) {
      return null; // running or done: asking again changes nothing
    }
    if (current != null && current.phase().equals(NodeBackupStatus.RUNNING)) {
      return "backup " + current.backup() + " runs";
    }
    VerifyStatus checking = verify;
    if (checking != null && !checking.finished()) {
      return "this node verifies backup " + checking.backup() + ": no backup until it is done";
    }
    if (!data.servesReads()) {
      return "this node's data is not complete (" + data.phase().label() + "): no backup now";
    }
    if (cluster.topology().inTransition()) {
      return "the membership is changing: no backup until it is done";
    }
    long cut = clock.getAsLong();
    long started = System.currentTimeMillis();
    backup =
        new NodeBackupStatus(id, NodeBackupStatus.RUNNING, started, 0, cut, 0, 0, 0, 0, 0, 0, null);
    var topology = cluster.topology();
    thread.execute(() -> {
      try {
        ObjectStoreSettings settings = ObjectStoreSettings.parse(Files.readString(storeFile));
        backup =
            new BackupRun(
                    id,
                    storage,
                    topology,
                    cut,
                    dataDir.resolve(CHECKPOINT),
                    digests,
                    s -> backup = s)
                .run(settings, started);
        log.info("backup {}: {}", id, backup);
      } catch (Exception | Error e) { // whatever happens, the backup ends: never running forever
        backup = backup.failed(System.currentTimeMillis(), reason(e));
        log.warn("backup {} failed: {}", id, backup.reason());
      }
    });
    return null;
  }

  /**
   * Starts verifying backup {@code id} ({@link BackupVerify}); a refusal's reason if it cannot
   * start (null: started, or that backup's verification runs already).
   */
  public synchronized String verify(String id) {
    BackupIds.require(id);
    if (storeFile == null) {
      return "this node has no object store settings (--backup-store-file): it verifies no backups";
    }
    VerifyStatus checking = verify;
    if (checking != null && !checking.finished()) {
      return checking.backup().equals(id) ? null : "backup " + checking.backup() + " is verified";
    }
    NodeBackupStatus current = backup;
    if (current != null && current.phase().equals(NodeBackupStatus.RUNNING)) {
      return "backup " + current.backup() + " runs: no verification until it is done";
    }
    RestoreStatus restoring = restore;
    if (restoring != null && !restoring.phase().equals(RestoreStatus.COMPLETED)) {
      return "this node restores a backup: no verification until it is done";
    }
    long started = System.currentTimeMillis();
    verify = new VerifyStatus(id, VerifyStatus.RUNNING, started, 0, 0, 0, 0, 0, 0, null);
    thread.execute(() -> {
      try {
        ObjectStoreSettings settings = ObjectStoreSettings.parse(Files.readString(storeFile));
        verify =
            new BackupVerify(dataDir.resolve(VERIFY_SCRATCH), s -> verify = s)
                .run(id, settings, started);
        log.info("verification of backup {}: {}", id, verify);
      } catch (Exception | Error e) { // whatever happens, it ends: never running forever
        verify = verify.ended(VerifyStatus.ERROR, System.currentTimeMillis(), reason(e));
        log.warn("verification of backup {} could not finish: {}", id, verify.reason());
      }
    });
    return null;
  }

  /** This node's latest verification since it started; null if none. */
  public VerifyStatus verification() {
    return verify;
  }

  /** This node's latest backup since it started; null if none. */
  public NodeBackupStatus backup() {
    return backup;
  }

  /** Its restore; null if it restores none. */
  public RestoreStatus restore() {
    return restore;
  }

  /**
   * Completes backup {@code id} ({@link BackupSeal}) once every member has taken its part; fails
   * with the reason if it cannot.
   */
  public CompletableFuture<BackupSummary> seal(String id) {
    BackupIds.require(id);
    var topology = cluster.topology();
    return withStore(store -> BackupSeal.seal(store, id, topology));
  }

  /** Deletes backup {@code id} from the store: the number of its objects deleted. */
  public CompletableFuture<Integer> delete(String id) {
    BackupIds.require(id);
    return withStore(store -> BackupPrune.deleteBackup(store, id));
  }

  /**
   * Deletes the files no backup in the store lists, older than {@code grace}: JSON of how many were
   * deleted and kept.
   */
  public CompletableFuture<String> collect(Duration grace) {
    if (grace.compareTo(MIN_GRACE) < 0) {
      throw new IllegalArgumentException(
          "the grace must be at least "
              + MIN_GRACE.toSeconds()
              + " s: a running backup's files"
              + " are listed by no manifest yet");
    }
    return withStore(store -> BackupPrune.collect(store, grace, Instant.now()).toJson());
  }

  private interface StoreWork<T> {
    T run(ObjectStore store) throws IOException;
  }

  /** {@code work} on the upkeep thread, with a client of the store of the settings file. */
  private <T> CompletableFuture<T> withStore(StoreWork<T> work) {
    if (storeFile == null) {
      return CompletableFuture.failedFuture(
          new IllegalStateException(
              "this node has no object store settings (--backup-store-file)"));
    }
    return CompletableFuture.supplyAsync(
        () -> {
          try (ObjectStore store =
              ObjectStore.open(ObjectStoreSettings.parse(Files.readString(storeFile)))) {
            return work.run(store);
          } catch (IOException e) {
            throw new IllegalStateException(e.getMessage(), e);
          }
        },
        upkeep);
  }

  /**
   * Restores {@code source} (on a node in {@link DataState.Phase#RESTORING}), retrying until it
   * succeeds; then the node serves.
   */
  public void restore(RestoreSource source) {
    restore = new RestoreStatus(source.backup(), RestoreStatus.RESTORING, 0, 0, 0, 0, 0, null);
    thread.execute(() -> restoreOnce(source));
  }

  private void restoreOnce(RestoreSource source) {
    if (closed) {
      return;
    }
    try {
      var topology = cluster.topology();
      restore =
          new BackupRestore(storage, topology, dataDir.resolve("restore-scratch"), s -> restore = s)
              .run(source);
      Files.deleteIfExists(dataDir.resolve(RESTORE_MARKER));
      data.restored();
      log.info("restored backup {}: {}", source.backup(), restore);
    } catch (Exception e) {
      restore = restore.failed(reason(e));
      log.warn(
          "restoring backup {} failed ({}): trying again in {} s",
          source.backup(),
          restore.reason(),
          RESTORE_RETRY_MS / 1000);
      CompletableFuture.delayedExecutor(RESTORE_RETRY_MS, TimeUnit.MILLISECONDS, thread)
          .execute(() -> restoreOnce(source));
    }
  }

  private static String reason(Throwable e) {
    String message = e.getMessage();
    return message == null || message.isBlank() ? e.toString() : message;
  }

  /** Stops the thread: a backup in progress fails (its checkpoint is deleted at the next one). */
  @Override
  public void close() {
    closed = true;
    thread.shutdownNow();
    upkeep.shutdownNow();
    try {
      thread.awaitTermination(10, TimeUnit.SECONDS);
      upkeep.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
