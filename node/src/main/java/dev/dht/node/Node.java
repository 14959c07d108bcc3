package dev.dht.node;

import dev.dht.contract.backup.RestoreSource;
import dev.dht.node.auth.UsersInForce;
import dev.dht.node.auth.UsersReloader;
import dev.dht.node.backup.NodeBackups;
import dev.dht.node.bootstrap.BootstrapMetrics;
import dev.dht.node.bootstrap.Bootstrapper;
import dev.dht.node.bootstrap.DataIdentity;
import dev.dht.node.bootstrap.DataState;
import dev.dht.node.cluster.ClockHighWaterMark;
import dev.dht.node.cluster.ClockMetrics;
import dev.dht.node.cluster.ClockOffsets;
import dev.dht.node.cluster.ClusterSecrets;
import dev.dht.node.cluster.ClusterState;
import dev.dht.node.cluster.FileWatcher;
import dev.dht.node.cluster.HybridClock;
import dev.dht.node.cluster.MembershipMetrics;
import dev.dht.node.cluster.Replication;
import dev.dht.node.cluster.Topology;
import dev.dht.node.hints.HintMetrics;
import dev.dht.node.hints.HintStore;
import dev.dht.node.http.Admission;
import dev.dht.node.http.HttpVerticle;
import dev.dht.node.http.Limits;
import dev.dht.node.metrics.NodeMetrics;
import dev.dht.node.profiling.Profiler;
import dev.dht.node.repair.Cleanup;
import dev.dht.node.repair.Maintenance;
import dev.dht.node.repair.RepairMetrics;
import dev.dht.node.repair.Repairer;
import dev.dht.node.repair.TombstoneHorizon;
import dev.dht.node.replication.PeerLimits;
import dev.dht.node.replication.PeerTransport;
import dev.dht.node.storage.Storage;
import dev.dht.node.storage.StorageMetrics;
import dev.dht.node.tls.TlsEngine;
import dev.dht.node.tls.TlsReloader;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.WorkerExecutor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One running node: storage, the HTTP servers on every event loop, and the watchers of its
 * membership and settings files. {@link #close()} stops it in order: stop accepting, finish what is
 * in flight, close RocksDB, stop Vert.x.
 */
public final class Node implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Node.class);
  private static final long WATCH_PERIOD_MS = 1000;

  /**
   * The membership file is polled more often (a stat of one small file): a change of membership
   * waits for every node to see each of its three epochs.
   */
  private static final long MEMBERSHIP_WATCH_MS = 100;

  /** Connections per peer and event loop; batching keeps few of them busy. */
  private static final int PEER_POOL_SIZE = 16;

  private final Vertx vertx;
  private final Storage storage;
  private final ClockHighWaterMark highWaterMark;
  private final ClockOffsets clockOffsets;
  private final NodeMetrics metrics;
  private final WorkerExecutor storagePool;
  private final ClusterState cluster;
  private final List<FileWatcher> watchers = new ArrayList<>();
  private final AtomicBoolean stopping = new AtomicBoolean();
  private final long shutdownDelayMs;
  private final WorkerExecutor backgroundWorker;
  private final HintStore hints;
  private final Repairer repairer;
  private final Repairer streamer;
  private final DataState data;
  private final Bootstrapper bootstrapper;
  private final NodeBackups backups;
  private final ClusterSecrets secrets;
  private final TlsReloader tls;
  private final PeerTransport transport;
  private final TombstoneHorizon tombstones = new TombstoneHorizon();
  private final UsersInForce users;
  private final UsersReloader usersReloader;
  private long secretsTimer = -1;
  private long tlsTimer = -1;
  private String deploymentId;
  private String backgroundId;
  private boolean closed;

  private Node(NodeConfig config) {
    shutdownDelayMs = config.shutdownDelayMs();
    Topology topology = initialTopology(config);
    cluster = new ClusterState(topology);
    DataIdentity.Start start =
        DataIdentity.classify(
            Storage.exists(config.dataDir()),
            DataIdentity.read(config.dataDir()),
            topology.self(),
            topology.epoch());
    RestoreSource restore = config.backups().restore();
    if (restore == null && NodeBackups.restoreUnfinished(config.dataDir())) {
      // a restore began, and its source is gone: the data is incomplete, pull it from the peers
      mark(config.dataDir(), Bootstrapper::markIncomplete);
      mark(config.dataDir(), NodeBackups::forgetRestore);
    }
    if (restore != null
        && NodeBackups.mustRestore(config.dataDir(), start == DataIdentity.Start.EMPTY)) {
      data = DataState.restoring(start, System::currentTimeMillis);
      mark(config.dataDir(), NodeBackups::markRestoring);
    } else {
      data =
          DataState.atStart(
              start,
              Bootstrapper.incomplete(config.dataDir()),
              topology,
              System::currentTimeMillis);
    }
    if (data.phase() == DataState.Phase.DECIDING) {
      mark(config.dataDir(), Bootstrapper::markIncomplete);
    }
    storage = new Storage(config.dataDir(), config.blockCacheBytes(), tombstones::timestamp);
    clockOffsets = ClockOffsets.ofSystem(config.maxClockOffsetMs());
    highWaterMark =
        ClockHighWaterMark.open(config.dataDir(), System::currentTimeMillis, clockOffsets);
    HybridClock clock =
        new HybridClock(
            System::currentTimeMillis,
            config.nodeId(),
            config.maxClockOffsetMs(),
            highWaterMark,
            clockOffsets);
    vertx =
        Vertx.vertx(
            new VertxOptions()
                .setPreferNativeTransport(true) // epoll on Linux: fewer syscalls than NIO
                .setEventLoopPoolSize(config.eventLoops())
                .setWorkerPoolSize(4));
    storagePool = vertx.createSharedWorkerExecutor("dht-storage", config.storageThreads());
    backgroundWorker = vertx.createSharedWorkerExecutor("dht-background", 1);
    Admission clients = new Admission(config.maxInflight(), config.maxBodyBytesInflight());
    Admission peers =
        new Admission(config.maxInternalInflight(), config.maxInternalBodyBytesInflight());
    metrics = new NodeMetrics();
    metrics.bindAdmission("client", clients::inflight, clients::bodyBytes);
    metrics.bindAdmission("internal", peers::inflight, peers::bodyBytes);
    metrics.bind(new StorageMetrics(storage));
    secrets = new ClusterSecrets(config.clusterSecret(), config.alsoAcceptedSecret());
    users = new UsersInForce(config.users(), System::nanoTime);
    usersReloader =
        config.usersFile() == null ? null : new UsersReloader(vertx, users, config.usersFile());
    tls = config.tls() == null ? null : new TlsReloader(config.tls());
    transport =
        new PeerTransport(
            config.peerPortSeparate() ? config.peerPort() : 0, tls, secrets, config.peerFrames());
    hints = hintStore(config);
    metrics.bind(new HintMetrics(hints));
    repairer = repairer(config, clock, false);
    streamer = repairer(config, clock, true);
    metrics.bind(new RepairMetrics(repairer.status(), tombstones));
    metrics.bind(new BootstrapMetrics(data));
    metrics.bind(new ClockMetrics(clockOffsets));
    metrics.bind(new MembershipMetrics(cluster));
    backups =
        new NodeBackups(
            config.dataDir(), config.backups().storeFile(), storage, cluster, data, clock::next);
    bootstrapper =
        new Bootstrapper(
            vertx,
            config.dataDir(),
            cluster,
            data,
            repairer::runNow,
            this::dropData,
            Repairer.repairedSince(storage));
    repairer.onFinished(bootstrapper::pullFinished);
    deploy(config, shared(config, clock, clients, peers));
    if (data.phase() == DataState.Phase.RESTORING) {
      log.info("started to restore backup {}: no reads until it is loaded", restore.backup());
      backups.restore(restore);
    }
    dropHintsForRemovedMembers();
    watch(config);
    log.info(
        "node {} (id {}) serving {} on ports {} ({} transport) with data in {}; cluster {}",
        topology.self(),
        config.nodeId(),
        (tls == null ? "plain HTTP" : "TLS (" + TlsEngine.name() + ")")
            + (users.current().required() ? ", clients authenticated" : ""),
        ports(config),
        vertx.isNativeTransportEnabled() ? "epoll" : "NIO",
        config.dataDir(),
        topology);
  }

  private static String ports(NodeConfig config) {
    return "client "
        + config.port()
        + ", peer "
        + config.peerPort()
        + ", admin "
        + config.adminPort();
  }

  /** A start-up marker written or deleted in the data directory. */
  private interface Marking {
    void on(Path dataDir) throws IOException;
  }

  private static void mark(Path dataDir, Marking marking) {
    try {
      marking.on(dataDir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write to the data directory " + dataDir, e);
    }
  }

  /** Hints for members no longer in the membership are dropped (at start, and when it changes). */
  private void dropHintsForRemovedMembers() {
    List<String> members = cluster.topology().members();
    for (String target : hints.pendingByTarget().keySet()) {
      if (!members.contains(target)) {
        storagePool
            .executeBlocking(() -> hints.dropFor(target), false)
            .onSuccess(n -> log.info("dropped {} hints for {}, no longer a member", n, target));
      }
    }
  }

  private Future<Void> dropData() {
    return backgroundWorker.executeBlocking(
        () -> {
          storage.dropData();
          return null;
        },
        false);
  }

  /** Hints kept on this node's storage, written on the storage pool. */
  private HintStore hintStore(NodeConfig config) {
    return new HintStore(
        storage,
        task ->
            storagePool.executeBlocking(
                () -> {
                  task.run();
                  return null;
                },
                false),
        System::currentTimeMillis,
        config.hints().windowMs(),
        config.hints().maxBytes(),
        metrics::hintTarget);
  }

  /** Anti-entropy repair, or (when {@code streaming}) the streams of a change of membership. */
  private Repairer repairer(NodeConfig config, HybridClock clock, boolean streaming) {
    var settings =
        new Repairer.Settings(
            config.repair().intervalMs(),
            config.repair().bytesPerSecond(),
            config.maxKeyBytes(),
            config.maxValueBytes(),
            config.repair().tombstoneGraceMs(),
            config.maxClockOffsetMs() + config.requestTimeoutMs(),
            config.repair().streamFiles());
    return new Repairer(
        vertx,
        cluster,
        storage,
        backgroundWorker,
        transport,
        clock,
        settings,
        tombstones,
        data::mayRepair,
        streaming);
  }

  /** What the admin endpoint sees of this node's upkeep. */
  private Maintenance maintenance(NodeConfig config) {
    return new Maintenance(
        repairer,
        streamer,
        tombstones,
        new Cleanup(cluster, storage, backgroundWorker),
        hints,
        storage,
        data,
        backups,
        new Profiler(
            vertx,
            backgroundWorker,
            Path.of(System.getProperty("java.io.tmpdir"), "dht-profile-" + config.port()),
            "dht node " + config.self(),
            metrics::requestsServed),
        NodeSettings.of(config));
  }

  /** What every event loop's HTTP verticle shares. */
  private HttpVerticle.Shared shared(
      NodeConfig config, HybridClock clock, Admission clients, Admission peers) {
    return new HttpVerticle.Shared(
        HttpVerticle.listeners(config.port(), config.peerPort(), config.adminPort()),
        config.listenAddress(),
        tls,
        transport,
        cluster,
        storage,
        data,
        storagePool,
        backgroundWorker,
        clock,
        clockOffsets,
        hints,
        maintenance(config),
        clients,
        peers,
        new Limits(
            config.maxKeyBytes(),
            config.maxValueBytes(),
            config.bodyTimeoutMs(),
            config.idleTimeoutSeconds()),
        metrics,
        secrets,
        users,
        usersReloader,
        config.requestTimeoutMs(),
        PEER_POOL_SIZE,
        PeerLimits.perLoop(
            config.peerMaxPendingOps(),
            config.peerMaxPendingBytes(),
            config.maxKeyBytes(),
            config.maxValueBytes(),
            config.eventLoops()),
        stopping::get);
  }

  /**
   * The HTTP verticles (one per event loop) and the background verticle; if one fails to start,
   * everything opened so far is closed.
   */
  private void deploy(NodeConfig config, HttpVerticle.Shared shared) {
    try {
      deploymentId =
          vertx
              .deployVerticle(
                  () -> new HttpVerticle(shared),
                  new DeploymentOptions().setInstances(config.eventLoops()))
              .await();
      backgroundId =
          vertx
              .deployVerticle(
                  new BackgroundVerticle(
                      config,
                      transport,
                      hints,
                      List.of(repairer, streamer),
                      bootstrapper,
                      backgroundWorker,
                      metrics,
                      cluster,
                      clockOffsets))
              .await();
    } catch (RuntimeException e) {
      vertx.close().await();
      highWaterMark.close();
      storage.close();
      metrics.close();
      throw e;
    }
  }

  private static Topology initialTopology(NodeConfig config) {
    if (config.clusterFile() == null) {
      return Topology.of(config.members(), config.self(), flagDefaults(config));
    }
    try {
      return ConfigFiles.topology(
          java.nio.file.Files.readString(config.clusterFile()),
          config.self(),
          flagDefaults(config));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static Replication.Defaults flagDefaults(NodeConfig config) {
    return new Replication.Defaults(config.defaultAck(), config.defaultFrom());
  }

  /** Starts a node and returns once it accepts requests; fails if storage or the port fail. */
  public static Node start(NodeConfig config) {
    return new Node(config);
  }

  public ClusterState cluster() {
    return cluster;
  }

  private void watch(NodeConfig config) {
    if (config.clusterFile() != null) {
      watchers.add(
          new FileWatcher(
              vertx,
              config.clusterFile().toString(),
              content -> {
                Topology next = ConfigFiles.topology(content, config.self(), flagDefaults(config));
                if (!next.sameMembership(cluster.topology())) {
                  log.info("cluster membership is now {}", next);
                  cluster.topology(next);
                  bootstrapper.recordIdentity();
                  dropHintsForRemovedMembers();
                }
              }));
    }
    watchers.forEach(w -> w.start(MEMBERSHIP_WATCH_MS));
    if (tls != null) {
      tlsTimer = tls.watch(vertx, WATCH_PERIOD_MS);
    }
    if (usersReloader != null) {
      usersReloader.watch(WATCH_PERIOD_MS);
    }
    if (config.clusterSecretFile() != null) {
      secretsTimer =
          secrets.watch(
              vertx, config.clusterSecretFile(), config.alsoAcceptedSecretFile(), WATCH_PERIOD_MS);
    }
  }

  /**
   * Graceful stop: not ready at once, then (after the shutdown delay, for load balancers to notice)
   * at most ~10 s more, then RocksDB is closed whatever is still running.
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    stopping.set(true);
    if (shutdownDelayMs > 0) {
      log.info("stopping: not ready; closing the listener in {} ms", shutdownDelayMs);
      try {
        Thread.sleep(shutdownDelayMs);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    watchers.forEach(FileWatcher::stop);
    if (usersReloader != null) {
      usersReloader.stop();
    }
    if (secretsTimer >= 0) {
      vertx.cancelTimer(secretsTimer);
    }
    if (tlsTimer >= 0) {
      vertx.cancelTimer(tlsTimer);
    }
    try {
      if (backgroundId != null) {
        vertx.undeploy(backgroundId).await(2, TimeUnit.SECONDS);
      }
      backgroundWorker.close().await(5, TimeUnit.SECONDS);
    } catch (Exception e) {
      log.warn("background work did not stop cleanly: {}", e.toString());
    }
    try {
      vertx.undeploy(deploymentId).await(8, TimeUnit.SECONDS);
    } catch (Exception e) {
      log.warn("HTTP servers did not stop cleanly: {}", e.toString());
    }
    try {
      storagePool.close().await(2, TimeUnit.SECONDS);
    } catch (Exception e) {
      log.warn("storage pool did not stop cleanly: {}", e.toString());
    }
    backups.close();
    highWaterMark.close();
    storage.close();
    metrics.close();
    try {
      vertx.close().await(2, TimeUnit.SECONDS);
    } catch (Exception e) {
      log.warn("Vert.x did not stop cleanly: {}", e.toString());
    }
    log.info("node stopped");
  }
}
