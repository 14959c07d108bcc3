package dev.dht.contract;

import java.util.ArrayList;
import java.util.List;

/**
 * The names of a node's flags (the node's options and the jar's warm-up), for the programs that
 * pass them: the operator to its pods, the warm-up to its training nodes. The node's own flag
 * definitions use these names, so a renamed flag breaks the build instead of a pod. {@link Pod} is
 * the typed list the operator passes.
 */
public final class NodeFlags {
  public static final String PORT = "--port";
  public static final String PEER_PORT = "--peer-port";
  public static final String ADMIN_PORT = "--admin-port";
  public static final String PEER_FRAMES = "--peer-frames";
  public static final String STREAM_FILES = "--stream-files";
  public static final String LISTEN_ADDRESS = "--listen-address";
  public static final String TLS_CERT_FILE = "--tls-cert-file";
  public static final String TLS_KEY_FILE = "--tls-key-file";
  public static final String TLS_CA_FILE = "--tls-ca-file";
  public static final String DATA_DIR = "--data-dir";
  public static final String SELF = "--self";
  public static final String CLUSTER = "--cluster";
  public static final String CLUSTER_FILE = "--cluster-file";

  /** Read by nodes before the members file carried the default ack/from; now refused. */
  public static final String SETTINGS_FILE = "--settings-file";

  public static final String EVENT_LOOPS = "--event-loops";
  public static final String STORAGE_THREADS = "--storage-threads";
  public static final String MAX_INFLIGHT = "--max-inflight";
  public static final String REQUEST_TIMEOUT_MS = "--request-timeout-ms";
  public static final String DEFAULT_ACK = "--default-ack";
  public static final String DEFAULT_FROM = "--default-from";
  public static final String MAX_KEY_BYTES = "--max-key-bytes";
  public static final String MAX_VALUE_BYTES = "--max-value-bytes";
  public static final String CLUSTER_SECRET_FILE = "--cluster-secret-file";
  public static final String CLUSTER_SECRET_ALSO_ACCEPTED_FILE =
      "--cluster-secret-also-accepted-file";
  public static final String INSECURE = "--insecure";

  /** The users document ({@link UsersDocument}); without it, clients are not authenticated. */
  public static final String USERS_FILE = "--users-file";

  /** Where backups go ({@code backup.ObjectStoreSettings}, JSON): re-read at each backup. */
  public static final String BACKUP_STORE_FILE = "--backup-store-file";

  /**
   * A backup to restore ({@code backup.RestoreSource}, JSON): read at start by a node on an empty
   * data directory, which then loads its share before it serves.
   */
  public static final String RESTORE_FILE = "--restore-file";

  public static final String IDLE_TIMEOUT_S = "--idle-timeout-s";
  public static final String BODY_TIMEOUT_MS = "--body-timeout-ms";
  public static final String MAX_BODY_BYTES_INFLIGHT = "--max-body-bytes-inflight";
  public static final String MAX_INTERNAL_INFLIGHT = "--max-internal-inflight";
  public static final String MAX_INTERNAL_BODY_BYTES_INFLIGHT =
      "--max-internal-body-bytes-inflight";
  public static final String PEER_MAX_PENDING_OPS = "--peer-max-pending-ops";
  public static final String PEER_MAX_PENDING_BYTES = "--peer-max-pending-bytes";
  public static final String MAX_CLOCK_OFFSET_MS = "--max-clock-offset-ms";
  public static final String SHUTDOWN_DELAY_MS = "--shutdown-delay-ms";
  public static final String HINT_WINDOW_S = "--hint-window-s";
  public static final String MAX_HINT_BYTES = "--max-hint-bytes";
  public static final String HINT_REPLAY_BYTES_PER_S = "--hint-replay-bytes-per-s";
  public static final String REPAIR_INTERVAL_S = "--repair-interval-s";
  public static final String REPAIR_BYTES_PER_S = "--repair-bytes-per-s";
  public static final String TOMBSTONE_GRACE_S = "--tombstone-grace-s";
  public static final String NODE_ID = "--node-id";
  public static final String BLOCK_CACHE_MB = "--block-cache-mb";
  public static final String WARM_UP_S = "--warm-up-s";
  public static final String WARM_UP_RATE = "--warm-up-rate";

  private NodeFlags() {}

  /**
   * The flags of a node in a pod, as the operator passes them: where it listens and keeps its data,
   * its own URL and the files it re-reads (the members, with the replication defaults, the secrets,
   * the users, the backup store, a backup to restore: null for none), its threads and admission
   * limits, its warm-up and its shutdown delay, then the cluster's other settings ({@code
   * --flag=value} each, only those set: the node's default applies to the rest); with TLS, its peer
   * and admin ports and its certificate files ({@link Tls}; null: plain HTTP on one port).
   */
  public record Pod(
      int port,
      Tls tls,
      String dataDir,
      String self,
      String clusterFile,
      String clusterSecretFile,
      String alsoAcceptedSecretFile,
      String usersFile,
      String backupStoreFile,
      String restoreFile,
      int eventLoops,
      int storageThreads,
      int maxInflight,
      long requestTimeoutMs,
      int maxValueBytes,
      int warmUpSeconds,
      long shutdownDelayMs,
      List<String> settings) {

    public List<String> args() {
      var args = new ArrayList<String>();
      args.add(PORT + "=" + port);
      if (tls != null) {
        args.addAll(tls.args());
      }
      args.addAll(
          List.of(
              DATA_DIR + "=" + dataDir,
              SELF + "=" + self,
              CLUSTER_FILE + "=" + clusterFile,
              CLUSTER_SECRET_FILE + "=" + clusterSecretFile,
              CLUSTER_SECRET_ALSO_ACCEPTED_FILE + "=" + alsoAcceptedSecretFile,
              EVENT_LOOPS + "=" + eventLoops,
              STORAGE_THREADS + "=" + storageThreads,
              MAX_INFLIGHT + "=" + maxInflight,
              REQUEST_TIMEOUT_MS + "=" + requestTimeoutMs,
              MAX_VALUE_BYTES + "=" + maxValueBytes,
              WARM_UP_S + "=" + warmUpSeconds,
              SHUTDOWN_DELAY_MS + "=" + shutdownDelayMs));
      if (usersFile != null) {
        args.add(USERS_FILE + "=" + usersFile);
      }
      if (backupStoreFile != null) {
        args.add(BACKUP_STORE_FILE + "=" + backupStoreFile);
      }
      if (restoreFile != null) {
        args.add(RESTORE_FILE + "=" + restoreFile);
      }
      args.addAll(settings);
      return List.copyOf(args);
    }
  }

  /** A TLS node's peer and admin ports, and its certificate, key and CA files. */
  public record Tls(int peerPort, int adminPort, String certFile, String keyFile, String caFile) {
    List<String> args() {
      return List.of(
          PEER_PORT + "=" + peerPort,
          ADMIN_PORT + "=" + adminPort,
          TLS_CERT_FILE + "=" + certFile,
          TLS_KEY_FILE + "=" + keyFile,
          TLS_CA_FILE + "=" + caFile);
    }
  }
}
