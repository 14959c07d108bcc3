package dev.dht.node;

import dev.dht.contract.NodeFlags;
import dev.dht.contract.UsersDocument;
import dev.dht.contract.backup.RestoreSource;
import dev.dht.node.cluster.Replication;
import dev.dht.node.tls.TlsFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * The node's flags, each also read from an environment variable ({@code --data-dir} and {@code
 * DHT_DATA_DIR}), and their validation: {@link #config()} resolves them, with the files they name,
 * into a {@link NodeConfig}. A picocli mixin: {@link Main} uses it, and so does the command that
 * assembles the node with the load generator into one jar.
 */
public final class NodeOptions {
  /** The largest value a node may accept: a value and its record header count as an int. */
  public static final int MAX_VALUE_BYTES_BOUND = 1 << 30;

  /** The largest clock offset a node may allow (a day): offsets are added to other times. */
  public static final long MAX_CLOCK_OFFSET_BOUND_MS = 86_400_000;

  @Option(
      names = NodeFlags.PORT,
      defaultValue = "${env:DHT_PORT}",
      description = "listening port (default: the port of --self, else 8080)")
  Integer port;

  @Option(
      names = NodeFlags.PEER_PORT,
      defaultValue = "${env:DHT_PEER_PORT:-0}",
      description =
          "port for node-to-node traffic, the same on every member (0: the client port; TLS needs"
              + " a port of its own)")
  int peerPort;

  @Option(
      names = NodeFlags.PEER_FRAMES,
      arity = "1",
      defaultValue = "${env:DHT_PEER_FRAMES:-true}",
      description =
          "send replica batches to peers as frames on one long-lived connection each (the"
              + " dht-peer/1 upgrade on the peer port), and take them; false: as HTTP requests"
              + " only, as nodes before frames did (peers of either kind work together)")
  boolean peerFrames;

  @Option(
      names = NodeFlags.STREAM_FILES,
      arity = "1",
      defaultValue = "${env:DHT_STREAM_FILES:-true}",
      description =
          "move a change of membership's keys as whole SST files, and send them; false: as"
              + " digests and entries, key by key, as nodes before files did (peers of either kind"
              + " work together)")
  boolean streamFiles;

  @Option(
      names = NodeFlags.ADMIN_PORT,
      defaultValue = "${env:DHT_ADMIN_PORT:-0}",
      description = "port for health, metrics and admin requests (0: the client port)")
  int adminPort;

  @Option(
      names = NodeFlags.TLS_CERT_FILE,
      defaultValue = "${env:DHT_TLS_CERT_FILE}",
      description =
          "PEM certificate (chain) every port serves over TLS and peers present to each other;"
              + " re-read while the node runs (none: plain HTTP)")
  Path tlsCertFile;

  @Option(
      names = NodeFlags.TLS_KEY_FILE,
      defaultValue = "${env:DHT_TLS_KEY_FILE}",
      description = "PEM (PKCS#8) private key of --tls-cert-file")
  Path tlsKeyFile;

  @Option(
      names = NodeFlags.TLS_CA_FILE,
      defaultValue = "${env:DHT_TLS_CA_FILE}",
      description =
          "PEM CA certificates a peer's certificate must chain to (several during a CA rotation)")
  Path tlsCaFile;

  @Option(
      names = NodeFlags.LISTEN_ADDRESS,
      defaultValue = "${env:DHT_LISTEN_ADDRESS:-0.0.0.0}",
      description = "address to listen on (default: every interface)")
  String listenAddress;

  @Option(
      names = NodeFlags.DATA_DIR,
      defaultValue = "${env:DHT_DATA_DIR:-data}",
      description = "RocksDB directory, created if missing")
  Path dataDir;

  @Option(
      names = NodeFlags.SELF,
      defaultValue = "${env:DHT_SELF}",
      description = "this node's URL; one of the cluster URLs")
  String self;

  @Option(
      names = NodeFlags.CLUSTER,
      split = ",",
      defaultValue = "${env:DHT_CLUSTER}",
      description = "member URLs, comma-separated")
  List<String> cluster;

  @Option(
      names = NodeFlags.CLUSTER_FILE,
      defaultValue = "${env:DHT_CLUSTER_FILE}",
      description = "file with one member URL a line, re-read when it changes")
  Path clusterFile;

  @Option(names = NodeFlags.SETTINGS_FILE, hidden = true)
  Path removedSettingsFile;

  @Option(
      names = NodeFlags.EVENT_LOOPS,
      defaultValue = "${env:DHT_EVENT_LOOPS:-0}",
      description = "Vert.x event loops (0: one per core)")
  int eventLoops;

  @Option(
      names = NodeFlags.STORAGE_THREADS,
      defaultValue = "${env:DHT_STORAGE_THREADS:-4}",
      description = "bounded RocksDB worker pool size")
  int storageThreads;

  @Option(
      names = NodeFlags.MAX_INFLIGHT,
      defaultValue = "${env:DHT_MAX_INFLIGHT:-4096}",
      description = "requests in flight beyond which the node answers 503")
  int maxInflight;

  @Option(
      names = NodeFlags.REQUEST_TIMEOUT_MS,
      defaultValue = "${env:DHT_REQUEST_TIMEOUT_MS:-1000}",
      description = "request deadline; fewer than ack answers by then gives 504")
  long requestTimeoutMs;

  @Option(
      names = NodeFlags.DEFAULT_ACK,
      defaultValue = "${env:DHT_DEFAULT_ACK:-0}",
      description = "default ack (0: floor(from/2)+1)")
  int defaultAck;

  @Option(
      names = NodeFlags.DEFAULT_FROM,
      defaultValue = "${env:DHT_DEFAULT_FROM:-0}",
      description = "default from (0: cluster size)")
  int defaultFrom;

  @Option(
      names = NodeFlags.MAX_KEY_BYTES,
      defaultValue = "${env:DHT_MAX_KEY_BYTES:-1024}",
      description = "longer keys get 400")
  int maxKeyBytes;

  @Option(
      names = NodeFlags.MAX_VALUE_BYTES,
      defaultValue = "${env:DHT_MAX_VALUE_BYTES:-1048576}",
      description = "larger values get 413")
  int maxValueBytes;

  @Option(
      names = NodeFlags.CLUSTER_SECRET_FILE,
      defaultValue = "${env:DHT_CLUSTER_SECRET_FILE}",
      description = "file holding the secret every internal request must carry")
  Path clusterSecretFile;

  @Option(
      names = NodeFlags.CLUSTER_SECRET_ALSO_ACCEPTED_FILE,
      defaultValue = "${env:DHT_CLUSTER_SECRET_ALSO_ACCEPTED_FILE}",
      description =
          "file holding a second secret that internal requests may carry, during a rotation;"
              + " both files are re-read while the node runs (a missing one: none)")
  Path alsoAcceptedSecretFile;

  @Option(
      names = NodeFlags.INSECURE,
      defaultValue = "${env:DHT_INSECURE:-false}",
      description =
          "allow a cluster of several members without a cluster secret (experiments only)")
  boolean insecure;

  @Option(
      names = NodeFlags.USERS_FILE,
      defaultValue = "${env:DHT_USERS_FILE}",
      description =
          "JSON users document: who may use the client API (bearer tokens, certificates), with"
              + " their ACLs and quotas; re-read while the node runs, a higher revision replacing"
              + " the one in force (none: clients are not authenticated)")
  Path usersFile;

  @Option(
      names = NodeFlags.BACKUP_STORE_FILE,
      defaultValue = "${env:DHT_BACKUP_STORE_FILE}",
      description =
          "JSON object store settings (endpoint, bucket, prefix, credentials directory) where this"
              + " node uploads its backups; re-read at each backup (none: the node takes none)")
  Path backupStoreFile;

  @Option(
      names = NodeFlags.RESTORE_FILE,
      defaultValue = "${env:DHT_RESTORE_FILE}",
      description =
          "JSON: a backup (object store and id) that this node, started on an empty data"
              + " directory, loads its share of before it serves")
  Path restoreFile;

  @Option(
      names = NodeFlags.IDLE_TIMEOUT_S,
      defaultValue = "${env:DHT_IDLE_TIMEOUT_S:-60}",
      description = "idle keep-alive connections are closed after this many seconds")
  int idleTimeoutSeconds;

  @Option(
      names = NodeFlags.BODY_TIMEOUT_MS,
      defaultValue = "${env:DHT_BODY_TIMEOUT_MS:-5000}",
      description = "a request body not complete by then gets 408 and its connection is closed")
  long bodyTimeoutMs;

  @Option(
      names = NodeFlags.MAX_BODY_BYTES_INFLIGHT,
      defaultValue = "${env:DHT_MAX_BODY_BYTES_INFLIGHT:-0}",
      description = "client request bodies held at once, in bytes, beyond which 503 (0: heap/8)")
  long maxBodyBytesInflight;

  @Option(
      names = NodeFlags.MAX_INTERNAL_INFLIGHT,
      defaultValue = "${env:DHT_MAX_INTERNAL_INFLIGHT:-1024}",
      description = "node-to-node batches in flight beyond which 503 (separate from clients)")
  int maxInternalInflight;

  @Option(
      names = NodeFlags.MAX_INTERNAL_BODY_BYTES_INFLIGHT,
      defaultValue = "${env:DHT_MAX_INTERNAL_BODY_BYTES_INFLIGHT:-0}",
      description = "node-to-node batch bodies held at once, in bytes (0: heap/8)")
  long maxInternalBodyBytesInflight;

  @Option(
      names = NodeFlags.PEER_MAX_PENDING_OPS,
      defaultValue = "${env:DHT_PEER_MAX_PENDING_OPS:-4096}",
      description = "replica ops queued or in flight to one peer; beyond, they fail at once")
  int peerMaxPendingOps;

  @Option(
      names = NodeFlags.PEER_MAX_PENDING_BYTES,
      defaultValue = "${env:DHT_PEER_MAX_PENDING_BYTES:-0}",
      description = "bytes of replica ops queued or in flight to one peer (0: heap/16)")
  long peerMaxPendingBytes;

  @Option(
      names = NodeFlags.MAX_CLOCK_OFFSET_MS,
      defaultValue = "${env:DHT_MAX_CLOCK_OFFSET_MS:-500}",
      description =
          "internal writes stamped further ahead of this node's clock are refused, no write is"
              + " stamped further ahead, and a node out by more from most of its peers fences"
              + " itself")
  long maxClockOffsetMs;

  @Option(
      names = NodeFlags.SHUTDOWN_DELAY_MS,
      defaultValue = "${env:DHT_SHUTDOWN_DELAY_MS:-0}",
      description = "on SIGTERM, report not ready for this long before closing the listener")
  long shutdownDelayMs;

  @Option(
      names = NodeFlags.HINT_WINDOW_S,
      defaultValue = "${env:DHT_HINT_WINDOW_S:-10800}",
      description =
          "hints older than this are dropped unreplayed (repair then covers them); 0: no hints")
  long hintWindowSeconds;

  @Option(
      names = NodeFlags.MAX_HINT_BYTES,
      defaultValue = "${env:DHT_MAX_HINT_BYTES:-1073741824}",
      description = "hints kept on disk at most; beyond, new hints are dropped")
  long maxHintBytes;

  @Option(
      names = NodeFlags.HINT_REPLAY_BYTES_PER_S,
      defaultValue = "${env:DHT_HINT_REPLAY_BYTES_PER_S:-8388608}",
      description = "pace of hint replay to one target")
  long hintReplayBytesPerSecond;

  @Option(
      names = NodeFlags.REPAIR_INTERVAL_S,
      defaultValue = "${env:DHT_REPAIR_INTERVAL_S:-3600}",
      description = "anti-entropy repair runs this often (0: only on demand)")
  long repairIntervalSeconds;

  @Option(
      names = NodeFlags.REPAIR_BYTES_PER_S,
      defaultValue = "${env:DHT_REPAIR_BYTES_PER_S:-16777216}",
      description = "pace of the records a repair receives")
  long repairBytesPerSecond;

  @Option(
      names = NodeFlags.TOMBSTONE_GRACE_S,
      defaultValue = "${env:DHT_TOMBSTONE_GRACE_S:-86400}",
      description = "tombstones are purged once this old; must be longer than the repair interval")
  long tombstoneGraceSeconds;

  @Option(
      names = NodeFlags.NODE_ID,
      defaultValue = "${env:DHT_NODE_ID:--1}",
      description =
          "this node's id in timestamps, 0..255, unique in the cluster (default: the StatefulSet"
              + " ordinal in --self's host, else --self's position in the member list)")
  int nodeId;

  @Option(
      names = NodeFlags.BLOCK_CACHE_MB,
      defaultValue = "${env:DHT_BLOCK_CACHE_MB:-64}",
      description = "RocksDB block cache size")
  long blockCacheMb;

  /**
   * The configuration the flags {@code args} give, as a node process would resolve it (for nodes
   * started in another program's JVM: tests, the image's training run). A flag given twice keeps
   * its last value.
   */
  public static NodeConfig parse(String... args) throws IOException {
    NodeOptions options = new NodeOptions();
    new CommandLine(options).setOverwrittenOptionsAllowed(true).parseArgs(args);
    return options.config();
  }

  /** The node's configuration; an {@link IllegalArgumentException} names a flag that is wrong. */
  public NodeConfig config() throws IOException {
    List<String> members = members();
    String selfUrl = self != null ? self : members.getFirst();
    int listenPort = port != null ? port : java.net.URI.create(selfUrl).getPort();
    String secret = clusterSecretFile == null ? null : Files.readString(clusterSecretFile).strip();
    String alsoAccepted = alsoAcceptedSecret();
    var defaults = replicationDefaults();
    requireValidLimits();
    TlsFiles tls = tls();
    var ports = ports(listenPort, tls);
    UsersDocument users = users();
    boolean hasSecret = secret != null && !secret.isEmpty();
    requireSecretIfSeveralMembers(members.size(), hasSecret || tls != null);
    return nodeConfig(
        ports, tls, selfUrl, members, defaults, hasSecret ? secret : null, alsoAccepted, users);
  }

  /**
   * The users document of {@code --users-file}; null without the flag. A node refuses to start on a
   * file it cannot read or that is not a valid document: it would otherwise serve clients with
   * fewer checks than its operator asked for.
   */
  private UsersDocument users() throws IOException {
    if (usersFile == null) {
      return null;
    }
    String where = NodeFlags.USERS_FILE + " " + usersFile;
    if (!Files.isRegularFile(usersFile)) {
      throw new IllegalArgumentException(where + ": no such file");
    }
    if (Files.size(usersFile) > UsersDocument.MAX_BYTES) {
      throw new IllegalArgumentException(
          where + ": larger than " + UsersDocument.MAX_BYTES + " bytes");
    }
    try {
      return UsersDocument.parse(Files.readString(usersFile));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(where + ": not a valid users document: " + e.getMessage());
    }
  }

  /** From the cluster file, else {@code --cluster}, else this node alone. */
  private List<String> members() throws IOException {
    if (clusterFile != null) {
      return ConfigFiles.members(Files.readString(clusterFile));
    }
    if (cluster != null && !cluster.isEmpty()) {
      return cluster;
    }
    return List.of(self != null ? self : "http://localhost:" + (port != null ? port : 8080));
  }

  /** The certificate, key and CA files, all three or none. */
  private TlsFiles tls() {
    boolean any = tlsCertFile != null || tlsKeyFile != null || tlsCaFile != null;
    if (!any) {
      return null;
    }
    if (tlsCertFile == null || tlsKeyFile == null || tlsCaFile == null) {
      throw new IllegalArgumentException(
          NodeFlags.TLS_CERT_FILE
              + ", "
              + NodeFlags.TLS_KEY_FILE
              + " and "
              + NodeFlags.TLS_CA_FILE
              + " go together: the node serves with the certificate and key, and its peers'"
              + " certificates must chain to the CA");
    }
    return new TlsFiles(tlsCertFile, tlsKeyFile, tlsCaFile);
  }

  private record Ports(int client, int peer, int admin) {}

  /**
   * The client, peer and admin ports, 0 meaning the client port. Peers share the client port only
   * in plain HTTP: with TLS they authenticate with certificates on a port clients never use.
   */
  private Ports ports(int client, TlsFiles tls) {
    requireValidPort(NodeFlags.PORT, client);
    int peer = peerPort == 0 ? client : peerPort;
    int admin = adminPort == 0 ? client : adminPort;
    requireValidPort(NodeFlags.PEER_PORT, peer);
    requireValidPort(NodeFlags.ADMIN_PORT, admin);
    if (tls != null && peer == client) {
      throw new IllegalArgumentException(
          "TLS needs a separate "
              + NodeFlags.PEER_PORT
              + ": peers prove who they are with certificates there, clients do not");
    }
    if (peer != client && (peer == admin)) {
      throw new IllegalArgumentException(
          NodeFlags.PEER_PORT + " and " + NodeFlags.ADMIN_PORT + " must differ, both are " + peer);
    }
    return new Ports(client, peer, admin);
  }

  private static void requireValidPort(String flag, int port) {
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException(flag + " must be a port, 1..65535, got " + port);
    }
  }

  /** The second secret of a rotation; null while its file is missing. */
  private String alsoAcceptedSecret() throws IOException {
    return alsoAcceptedSecretFile != null && Files.exists(alsoAcceptedSecretFile)
        ? Files.readString(alsoAcceptedSecretFile).strip()
        : null;
  }

  /**
   * The default ack and from of the flags (a members file's {@code replication} line, if any, takes
   * their place).
   */
  private Replication.Defaults replicationDefaults() {
    if (removedSettingsFile != null) { // a pod of an older operator's template on a newer image
      throw new IllegalArgumentException(
          NodeFlags.SETTINGS_FILE
              + " is no longer read: the default ack/from are the members file's replication"
              + " line; upgrade the operator before the node image");
    }
    if (defaultAck < 0
        || defaultFrom < 0
        || (defaultAck > 0 && defaultFrom > 0 && defaultAck > defaultFrom)) {
      throw new IllegalArgumentException(
          NodeFlags.DEFAULT_ACK
              + " and "
              + NodeFlags.DEFAULT_FROM
              + " need 0 <= ack <= from (0: not set), got "
              + defaultAck
              + "/"
              + defaultFrom);
    }
    return new Replication.Defaults(defaultAck, defaultFrom);
  }

  /** Sizes, counts, timeouts and paces within their bounds; the first that is not is reported. */
  private void requireValidLimits() {
    requirePositive(NodeFlags.STORAGE_THREADS, storageThreads);
    requirePositive(NodeFlags.MAX_INFLIGHT, maxInflight);
    requirePositive(NodeFlags.REQUEST_TIMEOUT_MS, requestTimeoutMs);
    requirePositive(NodeFlags.MAX_KEY_BYTES, maxKeyBytes);
    requirePositive(NodeFlags.MAX_VALUE_BYTES, maxValueBytes);
    requireAtMost(NodeFlags.MAX_VALUE_BYTES, maxValueBytes, MAX_VALUE_BYTES_BOUND);
    requirePositive(NodeFlags.IDLE_TIMEOUT_S, idleTimeoutSeconds);
    requirePositive(NodeFlags.BODY_TIMEOUT_MS, bodyTimeoutMs);
    requirePositive(NodeFlags.MAX_INTERNAL_INFLIGHT, maxInternalInflight);
    requirePositive(NodeFlags.PEER_MAX_PENDING_OPS, peerMaxPendingOps);
    requirePositive(NodeFlags.MAX_CLOCK_OFFSET_MS, maxClockOffsetMs);
    requireAtMost(NodeFlags.MAX_CLOCK_OFFSET_MS, maxClockOffsetMs, MAX_CLOCK_OFFSET_BOUND_MS);
    requireNotNegative(NodeFlags.MAX_BODY_BYTES_INFLIGHT, maxBodyBytesInflight);
    requireNotNegative(NodeFlags.MAX_INTERNAL_BODY_BYTES_INFLIGHT, maxInternalBodyBytesInflight);
    requireNotNegative(NodeFlags.PEER_MAX_PENDING_BYTES, peerMaxPendingBytes);
    requireNotNegative(NodeFlags.SHUTDOWN_DELAY_MS, shutdownDelayMs);
    requireNotNegative(NodeFlags.HINT_WINDOW_S, hintWindowSeconds);
    requireNotNegative(NodeFlags.REPAIR_INTERVAL_S, repairIntervalSeconds);
    requirePositive(NodeFlags.REPAIR_BYTES_PER_S, repairBytesPerSecond);
    requirePositive(NodeFlags.TOMBSTONE_GRACE_S, tombstoneGraceSeconds);
    requireTombstonesOutliveRepair();
    requireTombstonesOutliveHints();
    requirePositive(NodeFlags.MAX_HINT_BYTES, maxHintBytes);
    requirePositive(NodeFlags.HINT_REPLAY_BYTES_PER_S, hintReplayBytesPerSecond);
  }

  private void requireTombstonesOutliveRepair() {
    if (tombstoneGraceSeconds <= repairIntervalSeconds) {
      throw new IllegalArgumentException(
          "--tombstone-grace-s ("
              + tombstoneGraceSeconds
              + ") must be longer than --repair-interval-s ("
              + repairIntervalSeconds
              + "): a replica that missed a delete gets its tombstone from repair, and must get"
              + " it before the others purge it, or the deleted value comes back");
    }
  }

  private void requireTombstonesOutliveHints() {
    if (tombstoneGraceSeconds <= hintWindowSeconds) {
      throw new IllegalArgumentException(
          "--tombstone-grace-s ("
              + tombstoneGraceSeconds
              + ") must be longer than --hint-window-s ("
              + hintWindowSeconds
              + "): a hint replayed after its tombstone was purged elsewhere would bring a deleted"
              + " value back");
    }
  }

  private void requireSecretIfSeveralMembers(int members, boolean authenticatesPeers) {
    if (members > 1 && !authenticatesPeers && !insecure) {
      throw new IllegalArgumentException(
          "a cluster of "
              + members
              + " members needs peer certificates (--tls-cert-file) or a cluster secret"
              + " (--cluster-secret-file), or else anyone who reaches a node can write to its"
              + " replicas; --insecure allows it for experiments");
    }
  }

  /**
   * The flags and what {@link #config()} resolved; event loops and byte budgets left at 0 take
   * their defaults (one loop per core, a share of the heap).
   */
  private NodeConfig nodeConfig(
      Ports ports,
      TlsFiles tls,
      String selfUrl,
      List<String> members,
      Replication.Defaults defaults,
      String secret,
      String alsoAccepted,
      UsersDocument users) {
    long heap = Runtime.getRuntime().maxMemory();
    return new NodeConfig(
        ports.client(),
        listenAddress,
        dataDir,
        selfUrl,
        members,
        clusterFile,
        eventLoops > 0 ? eventLoops : Runtime.getRuntime().availableProcessors(),
        storageThreads,
        maxInflight,
        requestTimeoutMs,
        defaults.ack(),
        defaults.from(),
        maxKeyBytes,
        maxValueBytes,
        secret,
        alsoAccepted,
        clusterSecretFile,
        alsoAcceptedSecretFile,
        blockCacheMb << 20,
        idleTimeoutSeconds,
        bodyTimeoutMs,
        orDefault(maxBodyBytesInflight, heap / 8),
        maxInternalInflight,
        orDefault(maxInternalBodyBytesInflight, heap / 8),
        peerMaxPendingOps,
        orDefault(peerMaxPendingBytes, heap / 16),
        maxClockOffsetMs,
        shutdownDelayMs,
        dev.dht.node.cluster.NodeIds.resolve(nodeId, selfUrl, members),
        new NodeConfig.Hints(hintWindowSeconds * 1000, maxHintBytes, hintReplayBytesPerSecond),
        new NodeConfig.Repair(
            repairIntervalSeconds * 1000,
            repairBytesPerSecond,
            tombstoneGraceSeconds * 1000,
            streamFiles),
        ports.peer(),
        ports.admin(),
        tls,
        usersFile,
        users,
        new NodeConfig.Backups(backupStoreFile, restore()),
        peerFrames);
  }

  /**
   * The restore of {@code --restore-file}; null without the flag or the file (the operator removes
   * it once the cluster is restored, so a node that loses its disk later pulls from its peers
   * instead). A bad file stops the start.
   */
  private RestoreSource restore() {
    if (restoreFile == null || !Files.exists(restoreFile)) {
      return null;
    }
    String where = NodeFlags.RESTORE_FILE + " " + restoreFile;
    try {
      if (Files.size(restoreFile) > RestoreSource.MAX_BYTES) {
        throw new IllegalArgumentException(
            where + " is over " + RestoreSource.MAX_BYTES + " bytes");
      }
      return RestoreSource.parse(Files.readString(restoreFile));
    } catch (IOException e) {
      throw new IllegalArgumentException(where + " cannot be read: " + e.getMessage(), e);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
    }
  }

  private static long orDefault(long configured, long byDefault) {
    return configured > 0 ? configured : byDefault;
  }

  private static void requireNotNegative(String flag, long value) {
    if (value < 0) {
      throw new IllegalArgumentException(flag + " must not be negative, got " + value);
    }
  }

  private static void requireAtMost(String flag, long value, long bound) {
    if (value > bound) {
      throw new IllegalArgumentException(flag + " must be at most " + bound + ", got " + value);
    }
  }

  private static void requirePositive(String flag, long value) {
    if (value <= 0) {
      throw new IllegalArgumentException(flag + " must be positive, got " + value);
    }
  }
}
