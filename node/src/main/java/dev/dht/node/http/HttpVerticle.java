package dev.dht.node.http;

import dev.dht.node.auth.ClientUser;
import dev.dht.node.auth.UsersInForce;
import dev.dht.node.auth.UsersReloader;
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
import dev.dht.node.replication.PeerTransport;
import dev.dht.node.storage.Storage;
import dev.dht.node.tls.TlsEngine;
import dev.dht.node.tls.TlsReloader;
import dev.dht.node.tls.VouchedConnections;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.net.ServerSSLOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * One event loop's HTTP servers, one per {@link Listener} (client, peer and admin ports, or fewer
 * when they share one): each routes a request by path to its handler, and refuses paths of another
 * port's role. Every event loop runs its own instance on the shared ports, with its own peer
 * client, so a request never leaves its loop. HTTP/1.1 only: an {@code Upgrade: h2c} offer (the JDK
 * client makes one on every plain request) is ignored, so every client stays on HTTP/1.1. A client
 * request passes the {@link ClientGate} first (who, quota, ACL) when the users document in force
 * requires authentication. Every answer is counted in the metrics, whatever path or status.
 */
public final class HttpVerticle extends VerticleBase {
  /**
   * What every instance shares: one node's storage, cluster view, clock, limits and metrics, and
   * the users document in force ({@code usersReloader} null: the node reads none).
   */
  public record Shared(
      List<Listener> listeners,
      String listenAddress,
      TlsReloader tls,
      PeerTransport transport,
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
      UsersInForce users,
      UsersReloader usersReloader,
      long requestTimeoutMs,
      int connectionsPerPeer,
      PeerLimits peerLimits,
      BooleanSupplier stopping) {}

  /** The listeners of the client, peer and admin ports (fewer when ports are shared). */
  public static List<Listener> listeners(int clientPort, int peerPort, int adminPort) {
    return Listener.of(clientPort, peerPort, adminPort);
  }

  /** How late a body deadline may fire: the resolution of its shared timer. */
  private static final long BODY_TIMER_RESOLUTION_MS = 50;

  private final Shared shared;
  private PeerClient peers;
  private final List<HttpServer> servers = new ArrayList<>();
  private DelayedActions bodyDeadlines;
  private EntityHandler entities;
  private RangeHandler ranges;
  private InternalHandler internal;
  private ServiceHandler service;
  private AdminHandler admin;
  private ClientGate gate;

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
            shared.clockOffsets(),
            shared.requestTimeoutMs(),
            shared.connectionsPerPeer(),
            shared.peerLimits(),
            shared.metrics(),
            shared.transport());
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
    gate = new ClientGate(shared.metrics());
    entities = new EntityHandler(coordinator, shared.clock(), shared.clients(), limits, gate);
    ranges = new RangeHandler(local, shared.clients(), limits, gate);
    internal =
        new InternalHandler(
            local,
            shared.clock(),
            shared.peers(),
            limits,
            shared.metrics(),
            shared.secret(),
            shared.tls(),
            shared.requestTimeoutMs(),
            shared.transport().framed(),
            new RepairHandler(
                shared.cluster(),
                shared.storage(),
                shared.backgroundWorker(),
                shared.maintenance().repairer().status()::repairedSinceMillis,
                shared.data(),
                shared.maintenance().streamer().streamsFiles()));
    service = new ServiceHandler(local, shared.clock(), shared.metrics(), shared.stopping());
    admin =
        new AdminHandler(
            shared.cluster(),
            shared.maintenance(),
            shared.clockOffsets(),
            shared.secret(),
            shared.tls(),
            new UsersPush(shared.users(), shared.usersReloader(), shared.peers()));
    List<Future<HttpServer>> listening = new ArrayList<>();
    for (Listener listener : shared.listeners()) {
      HttpServer server = vertx.createHttpServer(serverOptions(listener, limits));
      servers.add(server);
      if (shared.tls() != null) {
        var vouched = new VouchedConnections();
        server.connectionHandler(vouched::track);
        shared
            .tls()
            .onChange(
                context,
                material ->
                    server
                        .updateSSLOptions(material.server(listener.clientAuth()))
                        .onSuccess(updated -> vouched.closeUntrusted(material)));
      }
      listening.add(server.requestHandler(request -> route(request, listener)).listen());
    }
    return Future.all(listening);
  }

  /**
   * Plain HTTP/1.1, or TLS with the node's certificate (the peer port demands a client's too, the
   * others ask for one: {@link Listener#clientAuth}).
   */
  private HttpServerOptions serverOptions(Listener listener, Limits limits) {
    HttpServerOptions options =
        new HttpServerOptions()
            .setHost(shared.listenAddress())
            .setPort(listener.port())
            .setTcpNoDelay(true)
            .setHttp2ClearTextEnabled(false) // HTTP/1.1 only: see the class comment
            .setPerMessageWebSocketCompressionSupported(false) // no WebSocket handlers
            .setPerFrameWebSocketCompressionSupported(false) // in the HTTP pipeline
            .setMaxInitialLineLength(16 * 1024)
            .setIdleTimeout(limits.idleTimeoutSeconds())
            .setIdleTimeoutUnit(TimeUnit.SECONDS);
    if (shared.tls() != null) {
      ServerSSLOptions ssl = shared.tls().current().server(listener.clientAuth());
      options
          .setSsl(true)
          .setSslEngineOptions(TlsEngine.options())
          .setKeyCertOptions(ssl.getKeyCertOptions())
          .setClientAuth(ssl.getClientAuth());
      if (ssl.getTrustOptions() != null) {
        options.setTrustOptions(ssl.getTrustOptions());
      }
    }
    return options;
  }

  /** Stops accepting and lets requests in flight finish (bounded), then closes the peer pool. */
  @Override
  public Future<?> stop() {
    return Future.join(servers.stream().map(s -> s.shutdown(5, TimeUnit.SECONDS)).toList())
        .eventually(() -> peers.close());
  }

  private void route(HttpServerRequest request, Listener listener) {
    String path = request.path();
    count(request, operation(path, request.method()));
    RequestBody body = RequestBody.guard(request, bodyDeadlines);
    Listener.Role role = role(path);
    if (!listener.serves(role)) {
      Responses.text(
          request,
          404,
          path + " is not served on this port: it takes " + listener.roles() + " requests");
      return;
    }
    try {
      ClientUser user = ClientUser.ANYONE;
      if (role == Listener.Role.CLIENT) {
        user = gate.admit(request, shared.users().current());
        if (user == null) {
          return; // refused, and answered
        }
      }
      switch (path) {
        case "/v0/entity", "/v0/entry" -> entities.handle(request, body, user);
        case "/v0/entities" -> ranges.handle(request, user);
        case "/v0/status" -> service.status(request);
        case "/health/live" -> service.live(request);
        case "/health/ready" -> service.ready(request);
        case "/metrics" -> service.metrics(request);
        case InternalApi.STATUS_PATH -> admin.peerStatus(request);
        default -> {
          if (path.startsWith(InternalApi.PREFIX)) {
            internal.handle(request, body);
          } else if (path.startsWith(AdminHandler.PREFIX)) {
            admin.handle(request, body);
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

  /** Which port a path belongs to; unknown paths are the client's (they get a 400 there). */
  private static Listener.Role role(String path) {
    return switch (path) {
      case "/health/live", "/health/ready", "/metrics" -> Listener.Role.ADMIN;
      default ->
          path.startsWith(InternalApi.PREFIX)
              ? Listener.Role.PEER
              : path.startsWith(AdminHandler.PREFIX) ? Listener.Role.ADMIN : Listener.Role.CLIENT;
    };
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
