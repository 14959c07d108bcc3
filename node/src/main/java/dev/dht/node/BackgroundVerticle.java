package dev.dht.node;

import dev.dht.node.hints.HintReplayer;
import dev.dht.node.hints.HintStore;
import dev.dht.node.metrics.NodeMetrics;
import dev.dht.node.replication.PeerClient;
import dev.dht.node.replication.PeerLimits;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.WorkerExecutor;

/**
 * The node's background work on one event loop of its own: hint replay and anti-entropy repair,
 * with their own peer connections, so that they never queue behind (or in front of) requests. Their
 * storage work runs on a one-thread worker of its own.
 */
final class BackgroundVerticle extends VerticleBase {
  private static final int CONNECTIONS_PER_PEER = 4;

  private final NodeConfig config;
  private final HintStore hints;
  private final WorkerExecutor worker;
  private final NodeMetrics metrics;
  private PeerClient peers;
  private HintReplayer replayer;

  BackgroundVerticle(
      NodeConfig config, HintStore hints, WorkerExecutor worker, NodeMetrics metrics) {
    this.config = config;
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
            config.clusterSecret(),
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
    return Future.succeededFuture();
  }

  @Override
  public Future<?> stop() {
    replayer.stop();
    return peers.close();
  }
}
