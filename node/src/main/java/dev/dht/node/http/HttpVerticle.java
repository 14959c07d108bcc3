package dev.dht.node.http;

import dev.dht.node.bootstrap.DataState;
import dev.dht.node.cluster.ClockOffsets;
import dev.dht.node.cluster.ClusterSecrets;
import dev.dht.node.cluster.ClusterState;
import dev.dht.node.cluster.HybridClock;
import dev.dht.node.hints.HintStore;
import dev.dht.node.loop.DelayedActions;
import dev.dht.node.metrics.NodeMetrics;
import dev.dht.node.repair.Maintenance;
import dev.dht.node.replication.Coordinator;
import dev.dht.node.replication.InternalApi;
import dev.dht.node.replication.LocalReplica;
import dev.dht.node.replication.PeerClient;
import dev.dht.node.replication.PeerLimits;
import dev.dht.node.storage.Storage;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * One event loop's HTTP server: routes each request by path to its handler. Every event loop runs
 * its own instance on the shared port, with its own peer client, so a request never leaves its
 * loop. HTTP/1.1 only: an {@code Upgrade: h2c} offer (the JDK client makes one on every plain
 * request) is ignored, so every client stays on HTTP/1.1. Every answer is counted in the metrics,
 * whatever path or status.
 */
public final class HttpVerticle extends VerticleBase {
  /** What every instance shares: one node's storage, cluster view, clock, limits and metrics. */
  public record Shared(
      int port,
      String listenAddress,
      ClusterState cluster,
      Storage storage,
      DataState data,
      WorkerExecutor storagePool,
      WorkerExecutor backgroundWorker,
      HybridClock clock,
      ClockOffsets clockOffsets,
      HintStore hints,
      Maintenance maintenance,
      Admission clients,
      Admission peers,
      Limits limits,
      NodeMetrics metrics,
      ClusterSecrets secret,
      long requestTimeoutMs,
      int connectionsPerPeer,
      PeerLimits peerLimits,
      BooleanSupplier stopping) {}

  /** How late a body deadline may fire: the resolution of its shared timer. */
  private static final long BODY_TIMER_RESOLUTION_MS = 50;

  private final Shared shared;
  private PeerClient peers;
  private HttpServer server;
  private DelayedActions bodyDeadlines;
  private EntityHandler entities;
  private RangeHandler ranges;
  private InternalHandler internal;
  private ServiceHandler service;
  private AdminHandler admin;

  public HttpVerticle(Shared shared) {
    this.shared = shared;
  }

  @Override
  public Future<?> start() {
    Limits limits = shared.limits();
    peers =
        new PeerClient(
            vertx,
            context,
            shared.secret(),
            shared.clockOffsets(),
            shared.requestTimeoutMs(),
            shared.connectionsPerPeer(),
            shared.peerLimits(),
            shared.metrics());
    LocalReplica local =
        new LocalReplica(shared.storage(), shared.data(), shared.storagePool(), context);
    Coordinator coordinator =
        new Coordinator(
            vertx,
            shared.cluster(),
            shared.clock(),
            local,
            peers,
            shared.hints(),
            shared.metrics(),
            shared.requestTimeoutMs());
    bodyDeadlines =
        new DelayedActions(
            vertx, limits.bodyTimeoutMs(), BODY_TIMER_RESOLUTION_MS, System::nanoTime);
    entities = new EntityHandler(coordinator, shared.clock(), shared.clients(), limits);
    ranges = new RangeHandler(local, shared.clients(), limits);
    internal =
        new InternalHandler(
            local,
            shared.clock(),
            shared.peers(),
            limits,
            shared.metrics(),
            shared.secret(),
            shared.requestTimeoutMs(),
            new RepairHandler(
                shared.cluster(),
                shared.storage(),
                shared.backgroundWorker(),
                shared.maintenance().repairer().status()::repairedSinceMillis,
                shared.data()));
    service = new ServiceHandler(local, shared.clock(), shared.metrics(), shared.stopping());
    admin =
        new AdminHandler(
            shared.cluster(), shared.maintenance(), shared.clockOffsets(), shared.secret());
    server =
        vertx.createHttpServer(
            new HttpServerOptions()
                .setHost(shared.listenAddress())
                .setPort(shared.port())
                .setTcpNoDelay(true)
                .setHttp2ClearTextEnabled(false) // HTTP/1.1 only: see the class comment
                .setPerMessageWebSocketCompressionSupported(false) // no WebSocket handlers
                .setPerFrameWebSocketCompressionSupported(false) // in the HTTP pipeline
                .setMaxInitialLineLength(16 * 1024)
                .setIdleTimeout(limits.idleTimeoutSeconds())
                .setIdleTimeoutUnit(TimeUnit.SECONDS));
    return server.requestHandler(this::route).listen();
  }

  /** Stops accepting and lets requests in flight finish (bounded), then closes the peer pool. */
  @Override
  public Future<?> stop() {
    return server.shutdown(5, TimeUnit.SECONDS).eventually(() -> peers.close());
  }

  private void route(HttpServerRequest request) {
    String path = request.path();
    count(request, operation(path, request.method()));
    RequestBody body = RequestBody.guard(request, bodyDeadlines);
    try {
      switch (path) {
        case "/v0/entity", "/v0/entry" -> entities.handle(request, body);
        case "/v0/entities" -> ranges.handle(request);
        case "/v0/status" -> service.status(request);
        case "/health/live" -> service.live(request);
        case "/health/ready" -> service.ready(request);
        case "/metrics" -> service.metrics(request);
        default -> {
          if (path.startsWith(InternalApi.PREFIX)) {
            internal.handle(request, body);
          } else if (path.startsWith(AdminHandler.PREFIX)) {
            admin.handle(request);
          } else {
            Responses.text(request, 400, "unknown path " + path);
          }
        }
      }
    } catch (Query.MalformedException e) {
      Responses.text(request, 400, e.getMessage());
    } catch (RuntimeException e) {
      Failures.answer(request, e);
    }
  }

  /** Records the answer when it ends; one the client never got (it left) counts as 499. */
  private void count(HttpServerRequest request, String operation) {
    long start = System.nanoTime();
    HttpServerResponse response = request.response();
    response.endHandler(v ->
        shared
            .metrics()
            .request(
                operation,
                response.ended() ? response.getStatusCode() : 499,
                System.nanoTime() - start));
  }

  /** The metrics tag of a request (constants: this runs on every request). */
  private static String operation(String path, HttpMethod method) {
    return switch (path) {
      case "/v0/entity", "/v0/entry" ->
          method == HttpMethod.GET
              ? "get"
              : method == HttpMethod.PUT
                  ? "put"
                  : method == HttpMethod.DELETE ? "delete" : "entity-other";
      case "/v0/entities" -> "range";
      case "/v0/status", "/health/live", "/health/ready", "/metrics" -> "service";
      default ->
          path.startsWith(InternalApi.PREFIX)
              ? "internal"
              : path.startsWith(AdminHandler.PREFIX) ? "admin" : "unknown";
    };
  }
}
