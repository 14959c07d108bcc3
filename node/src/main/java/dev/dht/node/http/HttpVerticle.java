package dev.dht.node.http;

import dev.dht.node.cluster.ClusterState;
import dev.dht.node.cluster.HybridClock;
import dev.dht.node.metrics.NodeMetrics;
import dev.dht.node.replication.Coordinator;
import dev.dht.node.replication.InternalApi;
import dev.dht.node.replication.LocalReplica;
import dev.dht.node.replication.PeerClient;
import dev.dht.node.storage.Storage;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import java.util.concurrent.TimeUnit;

/**
 * One event loop's HTTP server: routes each request by path to its handler. Every event loop runs
 * its own instance on the shared port, with its own peer client, so a request never leaves its
 * loop.
 */
public final class HttpVerticle extends VerticleBase {
  /** What every instance shares: one node's storage, cluster view, clock, limits and metrics. */
  public record Shared(
      int port,
      ClusterState cluster,
      Storage storage,
      WorkerExecutor storagePool,
      HybridClock clock,
      Admission admission,
      Limits limits,
      NodeMetrics metrics,
      String secret,
      long requestTimeoutMs,
      int connectionsPerPeer) {}

  private final Shared shared;
  private PeerClient peers;
  private HttpServer server;
  private EntityHandler entities;
  private RangeHandler ranges;
  private InternalHandler internal;
  private ServiceHandler service;

  public HttpVerticle(Shared shared) {
    this.shared = shared;
  }

  @Override
  public Future<?> start() {
    peers =
        new PeerClient(
            vertx,
            context,
            shared.secret(),
            shared.requestTimeoutMs(),
            shared.connectionsPerPeer());
    LocalReplica local = new LocalReplica(shared.storage(), shared.storagePool(), context);
    Coordinator coordinator =
        new Coordinator(
            vertx, shared.cluster(), local, peers, shared.metrics(), shared.requestTimeoutMs());
    entities =
        new EntityHandler(
            coordinator, shared.clock(), shared.admission(), shared.limits(), shared.metrics());
    ranges = new RangeHandler(local, shared.admission(), shared.limits());
    internal =
        new InternalHandler(
            local, shared.clock(), shared.admission(), shared.limits(), shared.secret());
    service = new ServiceHandler(local, shared.metrics());
    server =
        vertx.createHttpServer(
            new HttpServerOptions()
                .setPort(shared.port())
                .setTcpNoDelay(true)
                .setPerMessageWebSocketCompressionSupported(false) // no WebSocket handlers
                .setPerFrameWebSocketCompressionSupported(false) // in the HTTP pipeline
                .setMaxInitialLineLength(16 * 1024)
                .setIdleTimeout(300)
                .setIdleTimeoutUnit(TimeUnit.SECONDS));
    return server.requestHandler(this::route).listen();
  }

  /** Stops accepting and lets requests in flight finish (bounded), then closes the peer pool. */
  @Override
  public Future<?> stop() {
    return server.shutdown(5, TimeUnit.SECONDS).eventually(() -> peers.close());
  }

  private void route(HttpServerRequest request) {
    try {
      String path = request.path();
      switch (path) {
        case "/v0/entity", "/v0/entry" -> entities.handle(request);
        case "/v0/entities" -> ranges.handle(request);
        case "/v0/status" -> service.status(request);
        case "/health/live" -> service.live(request);
        case "/health/ready" -> service.ready(request);
        case "/metrics" -> service.metrics(request);
        default -> {
          if (path.startsWith(InternalApi.PREFIX)) {
            internal.handle(request);
          } else {
            Responses.text(request, 400, "unknown path " + path);
          }
        }
      }
    } catch (Query.MalformedException e) {
      Responses.text(request, 400, e.getMessage());
    }
  }
}
