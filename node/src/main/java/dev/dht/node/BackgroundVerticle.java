package dev.dht.node;

import dev.dht.node.bootstrap.Bootstrapper;
import dev.dht.node.cluster.ClusterSecrets;
import dev.dht.node.hints.HintStore;
import dev.dht.node.metrics.NodeMetrics;
import dev.dht.node.repair.Repairer;
import dev.dht.node.replication.HintReplayer;
import dev.dht.node.replication.PeerClient;
import dev.dht.node.replication.PeerLimits;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.PoolOptions;
import java.util.List;

/**
 * The node's background work on one event loop of its own: hint replay, anti-entropy repair and the
 * bootstrap of a node that started empty, with their own peer connections, so that they never queue
 * behind (or in front of) requests. Their storage work runs on a one-thread worker of its own.
 */
final class BackgroundVerticle extends VerticleBase {
  private static final int CONNECTIONS_PER_PEER = 4;

  private final NodeConfig config;
  private final ClusterSecrets secrets;
  private final HintStore hints;
  private final List<Repairer> repairers;
  private final Bootstrapper bootstrapper;
  private final WorkerExecutor worker;
  private final NodeMetrics metrics;
  private PeerClient peers;
  private HintReplayer replayer;
  private HttpClient repairs;

  BackgroundVerticle(
      NodeConfig config,
      ClusterSecrets secrets,
      HintStore hints,
      List<Repairer> repairers,
      Bootstrapper bootstrapper,
      WorkerExecutor worker,
      NodeMetrics metrics) {
    this.repairers = repairers;
    this.bootstrapper = bootstrapper;
    this.config = config;
    this.secrets = secrets;
    this.hints = hints;
    this.worker = worker;
    this.metrics = metrics;
  }

  @Override
  public Future<?> start() {
    peers =
        new PeerClient(
            vertx,
            context,
            secrets,
            config.requestTimeoutMs(),
            CONNECTIONS_PER_PEER,
            PeerLimits.perLoop(
                config.peerMaxPendingOps(),
                config.peerMaxPendingBytes(),
                config.maxKeyBytes(),
                config.maxValueBytes(),
                1),
            metrics);
    replayer =
        new HintReplayer(
            vertx,
            hints,
            worker,
            peers,
            config.hints().replayBytesPerSecond(),
            Math.max(config.requestTimeoutMs(), 5000));
    replayer.start();
    repairs =
        vertx.createHttpClient(
            new HttpClientOptions().setKeepAlive(true).setConnectTimeout(5000),
            new PoolOptions().setHttp1MaxSize(2));
    repairers.forEach(r -> r.start(context, repairs));
    bootstrapper.start(repairs);
    return Future.succeededFuture();
  }

  @Override
  public Future<?> stop() {
    replayer.stop();
    bootstrapper.stop();
    repairers.forEach(Repairer::stop);
    return Future.join(peers.close(), repairs.close());
  }
}
