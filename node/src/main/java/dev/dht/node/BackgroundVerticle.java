package dev.dht.node;

import dev.dht.node.bootstrap.Bootstrapper;
import dev.dht.node.cluster.ClockOffsets;
import dev.dht.node.cluster.ClusterState;
import dev.dht.node.hints.HintStore;
import dev.dht.node.metrics.NodeMetrics;
import dev.dht.node.repair.Repairer;
import dev.dht.node.replication.ClockProbe;
import dev.dht.node.replication.HintReplayer;
import dev.dht.node.replication.InternalApi;
import dev.dht.node.replication.PeerClient;
import dev.dht.node.replication.PeerLimits;
import dev.dht.node.replication.PeerTransport;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import java.util.List;

/**
 * The node's background work on one event loop of its own: hint replay, anti-entropy repair, the
 * bootstrap of a node that started empty and the probes of idle peers' clocks, with their own peer
 * connections, so that they never queue behind (or in front of) requests. Their storage work runs
 * on a one-thread worker of its own.
 */
final class BackgroundVerticle extends VerticleBase {
  private static final int CONNECTIONS_PER_PEER = 4;

  private final NodeConfig config;
  private final PeerTransport transport;
  private final HintStore hints;
  private final List<Repairer> repairers;
  private final Bootstrapper bootstrapper;
  private final WorkerExecutor worker;
  private final NodeMetrics metrics;
  private final ClusterState cluster;
  private final ClockOffsets offsets;
  private PeerClient peers;
  private HintReplayer replayer;
  private HttpClientAgent repairs;
  private HttpClientAgent probes;
  private ClockProbe clockProbe;

  BackgroundVerticle(
      NodeConfig config,
      PeerTransport transport,
      HintStore hints,
      List<Repairer> repairers,
      Bootstrapper bootstrapper,
      WorkerExecutor worker,
      NodeMetrics metrics,
      ClusterState cluster,
      ClockOffsets offsets) {
    this.cluster = cluster;
    this.offsets = offsets;
    this.repairers = repairers;
    this.bootstrapper = bootstrapper;
    this.config = config;
    this.transport = transport;
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
            offsets,
            config.requestTimeoutMs(),
            CONNECTIONS_PER_PEER,
            PeerLimits.perLoop(
                config.peerMaxPendingOps(),
                config.peerMaxPendingBytes(),
                config.maxKeyBytes(),
                config.maxValueBytes(),
                1),
            metrics,
            transport);
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
            transport.clientOptions().setKeepAlive(true).setConnectTimeout(5000),
            new PoolOptions().setHttp1MaxSize(2));
    transport.keepCurrent(context, repairs);
    repairers.forEach(r -> r.start(context, repairs));
    bootstrapper.start(
        repairs, peer -> transport.request(peer, HttpMethod.GET, InternalApi.STATUS_PATH));
    probes =
        vertx.createHttpClient(transport.clientOptions(), new PoolOptions().setHttp1MaxSize(1));
    transport.keepCurrent(context, probes);
    clockProbe = new ClockProbe(vertx, probes, cluster, transport, offsets);
    clockProbe.start();
    return Future.succeededFuture();
  }

  @Override
  public Future<?> stop() {
    replayer.stop();
    clockProbe.stop();
    bootstrapper.stop();
    repairers.forEach(Repairer::stop);
    return Future.join(peers.close(), repairs.close(), probes.close());
  }
}
