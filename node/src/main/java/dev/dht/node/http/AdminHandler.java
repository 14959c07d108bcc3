package dev.dht.node.http;

import dev.dht.contract.AdminStatus;
import dev.dht.node.cluster.ClockOffsets;
import dev.dht.node.cluster.ClusterSecrets;
import dev.dht.node.cluster.ClusterState;
import dev.dht.node.cluster.Topology;
import dev.dht.node.profiling.ProfileRequest;
import dev.dht.node.repair.Maintenance;
import dev.dht.node.replication.InternalApi;
import dev.dht.node.tls.TlsReloader;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code /v0/admin/...}: what a node is doing, and the upkeep an operator starts. Every request
 * needs the cluster secret header ({@code 401} without): status and profiles say much about the
 * data and cost the node work.
 *
 * <ul>
 *   <li>{@code GET status}: membership epoch and member states, repair, streaming and cleanup
 *       progress, hints held for others, estimated keys and SST bytes, settings, bootstrap phase,
 *       whether the clock is fenced and its offset to the peers, the users document's revision and
 *       whether it requires authentication (JSON);
 *   <li>{@code GET repair}: the repair status alone;
 *   <li>{@code POST repair | stream | cleanup}: starts one now ({@code 202}; {@code 409} if one
 *       runs, or cleanup during a transition);
 *   <li>{@code POST profile?events=cpu,alloc,lock&seconds=30}: profiles the JVM with async-profiler
 *       ({@code 202}; {@code 409} if a profile runs); {@code GET profile}: its state; {@code GET
 *       profile/<event>.html}: the last profile's flame graph of an event;
 *   <li>{@code PUT users}: a new users document ({@link UsersPush});
 *   <li>{@code POST backup?id=ID}: takes this node's part of a backup ({@code 202}; {@code 409}
 *       with the reason if it cannot now); {@code GET backup}: its progress; {@code POST
 *       backup/seal|delete|collect}: completes a backup, deletes one, deletes the files none needs;
 *       {@code POST backup/verify?id=ID}: checks that a complete backup can be restored ({@code GET
 *       backup/verify}: its progress and outcome); {@code GET restore}: the restore's progress.
 * </ul>
 */
final class AdminHandler {
  static final String PREFIX = "/v0/admin/";
  private static final String FLAME_GRAPHS = "profile/";

  private final ClusterState cluster;
  private final Maintenance maintenance;
  private final ClockOffsets clockOffsets;
  private final ClusterSecret secret;

  private final ClusterSecrets secrets;
  private final UsersPush users;

  AdminHandler(
      ClusterState cluster,
      Maintenance maintenance,
      ClockOffsets clockOffsets,
      ClusterSecrets secrets,
      TlsReloader tls,
      UsersPush users) {
    this.cluster = cluster;
    this.maintenance = maintenance;
    this.clockOffsets = clockOffsets;
    this.secrets = secrets;
    this.secret = new ClusterSecret(secrets, tls);
    this.users = users;
  }

  void handle(HttpServerRequest request, RequestBody body) {
    if (!secret.admits(request)) {
      Responses.text(
          request, 401, "admin requests need the cluster secret in " + InternalApi.SECRET_HEADER);
      return;
    }
    String what = request.path().substring(PREFIX.length());
    if (request.method() == HttpMethod.GET) {
      switch (what) {
        case "status" -> json(request, status().toJson());
        case "repair" -> json(request, AdminStatus.write(maintenance.repairer().status().view()));
        case "profile" -> json(request, maintenance.profiler().toJson().encode());
        case "backup" -> {
          var backup = maintenance.backups().backup();
          if (backup == null) {
            Responses.text(request, 404, "no backup since this node started");
          } else {
            json(request, backup.toJson());
          }
        }
        case "backup/verify" -> {
          var verification = maintenance.backups().verification();
          if (verification == null) {
            Responses.text(request, 404, "no verification since this node started");
          } else {
            json(request, verification.toJson());
          }
        }
        case "restore" -> {
          var restore = maintenance.backups().restore();
          if (restore == null) {
            Responses.text(request, 404, "this node restores no backup");
          } else {
            json(request, restore.toJson());
          }
        }
        default -> {
          if (what.startsWith(FLAME_GRAPHS) && what.endsWith(".html")) {
            flameGraph(request, what.substring(FLAME_GRAPHS.length(), what.length() - 5));
          } else {
            Responses.text(request, 404, "no admin resource " + what);
          }
        }
      }
      return;
    }
    if (request.method() == HttpMethod.PUT && what.equals(UsersPush.PATH)) {
      users.handle(request, body);
      return;
    }
    if (request.method() != HttpMethod.POST) {
      request.response().putHeader(HttpHeaders.ALLOW, "GET, POST, PUT");
      Responses.text(request, 405, "method " + request.method() + " is not allowed here");
      return;
    }
    if (what.equals("profile")) {
      profile(request);
      return;
    }
    if (what.equals("backup") || what.equals("backup/verify")) {
      backup(request, what.equals("backup/verify"));
      return;
    }
    if (what.startsWith("backup/")) {
      backupUpkeep(request, what.substring("backup/".length()));
      return;
    }
    Future<Boolean> started =
        switch (what) {
          case "repair" -> maintenance.repairer().runNow();
          case "stream" -> maintenance.streamer().runNow();
          case "cleanup" -> Future.succeededFuture(maintenance.cleanup().start());
          default -> null;
        };
    if (started == null) {
      Responses.text(request, 404, "no admin action " + what);
      return;
    }
    started.onSuccess(ok ->
        Responses.text(
            request, ok ? 202 : 409, ok ? what + " started" : what + " cannot start now"));
  }

  /** {@code POST profile?events=cpu,alloc&seconds=30}: 202, 409 if one runs, 400 if malformed. */
  private void profile(HttpServerRequest request) {
    ProfileRequest profile;
    try {
      profile = ProfileRequest.parse(request.getParam("events"), request.getParam("seconds"));
    } catch (IllegalArgumentException e) {
      Responses.text(request, 400, e.getMessage());
      return;
    }
    maintenance
        .profiler()
        .start(profile)
        .onSuccess(ok ->
            Responses.text(
                request,
                ok ? 202 : 409,
                ok
                    ? "profiling " + profile.seconds() + " s"
                    : "a profile runs already in this JVM"))
        .onFailure(e -> Responses.text(request, 500, "cannot profile: " + e.getMessage()));
  }

  /**
   * {@code POST backup?id=ID} takes this node's part of a backup, {@code POST backup/verify?id=ID}
   * verifies a complete one: 202 started (or running already), 409 with the reason, 400.
   */
  private void backup(HttpServerRequest request, boolean verify) {
    try {
      String id = request.getParam("id");
      var backups = maintenance.backups();
      String refused = verify ? backups.verify(id) : backups.start(id);
      Responses.text(
          request,
          refused == null ? 202 : 409,
          refused == null
              ? (verify ? "verification of backup " : "backup ") + id + " runs"
              : refused);
    } catch (IllegalArgumentException e) {
      Responses.text(request, 400, e.getMessage());
    }
  }

  /**
   * {@code POST backup/seal?id=ID}: completes a backup every member took its part of (200 with its
   * summary); {@code POST backup/delete?id=ID}: deletes a backup from the store (200 with the count
   * of objects); {@code POST backup/collect?graceSeconds=S}: deletes the files no backup lists,
   * older than S (default 3600). 409 with the reason when it cannot be done; 400 on a bad id.
   */
  private void backupUpkeep(HttpServerRequest request, String action) {
    var backups = maintenance.backups();
    String id = request.getParam("id");
    try {
      java.util.concurrent.CompletableFuture<String> work =
          switch (action) {
            case "seal" -> backups.seal(id).thenApply(summary -> summary.toJson());
            case "delete" -> backups.delete(id).thenApply(n -> "{\"deleted\":" + n + "}");
            case "collect" ->
                backups.collect(
                    java.time.Duration.ofSeconds(
                        Long.parseLong(
                            java.util.Objects.requireNonNullElse(
                                request.getParam("graceSeconds"), "3600"))));
            default -> null;
          };
      if (work == null) {
        Responses.text(request, 404, "no admin action backup/" + action);
        return;
      }
      Future.fromCompletionStage(work, Vertx.currentContext())
          .onSuccess(text -> json(request, text))
          .onFailure(e -> Responses.text(request, 409, reasonOf(e)));
    } catch (IllegalArgumentException e) {
      Responses.text(request, 400, e.getMessage());
    }
  }

  private static String reasonOf(Throwable e) {
    Throwable cause = e.getCause() != null && e.getMessage() == null ? e.getCause() : e;
    if (cause instanceof java.util.concurrent.CompletionException && cause.getCause() != null) {
      cause = cause.getCause();
    }
    return cause.getMessage() == null ? cause.toString() : cause.getMessage();
  }

  /** {@code GET profile/<event>.html}: the last session's flame graph of that event. */
  private void flameGraph(HttpServerRequest request, String event) {
    maintenance
        .profiler()
        .flameGraph(event)
        .onSuccess(html -> {
          if (html == null) {
            Responses.text(request, 404, "no finished profile has a flame graph of " + event);
          } else {
            request.response().putHeader(HttpHeaders.CONTENT_TYPE, "text/html").end(html);
          }
        })
        .onFailure(e -> Responses.text(request, 500, e.getMessage()));
  }

  /** {@code GET /internal/v0/status}: the same status, for peers (certificate or secret). */
  void peerStatus(HttpServerRequest request) {
    if (!secret.admits(request)) {
      Responses.text(request, 401, "peer requests need a peer certificate or the cluster secret");
      return;
    }
    json(request, status().toJson());
  }

  private AdminStatus status() {
    Topology topology = cluster.topology();
    var storage = maintenance.storage();
    var members = new ArrayList<AdminStatus.Member>();
    for (int m = 0; m < topology.members().size(); m++) {
      members.add(
          new AdminStatus.Member(
              topology.member(m),
              topology.state(m).name().toLowerCase(Locale.ROOT),
              topology.zones().get(m)));
    }
    return new AdminStatus(
        topology.self(),
        topology.epoch(),
        topology.inTransition(),
        topology.readsNext() ? "next" : "current",
        members,
        topology.currentReplication().ack(),
        topology.currentReplication().from(),
        maintenance.repairer().status().view(),
        maintenance.streamer().status().view(),
        maintenance.cleanup().view(),
        hints(),
        new AdminStatus.StorageSize(
            storage.longProperty("rocksdb.estimate-num-keys"),
            storage.longProperty("rocksdb.total-sst-files-size")),
        secrets.fingerprints(),
        maintenance.settings(),
        new AdminStatus.Bootstrap(
            maintenance.data().phase().label(), maintenance.data().heldDataSinceMillis()),
        new AdminStatus.Tombstones(
            maintenance.repairer().status().repairedSinceMillis(),
            maintenance.tombstones().millis()),
        clock(),
        users.revision(),
        users.authentication(),
        List.of(AdminStatus.ZONES));
  }

  /** Whether the clock is fenced, and the offsets to the peers it was measured against. */
  private AdminStatus.Clock clock() {
    ClockOffsets.Verdict verdict = clockOffsets.verdict();
    return new AdminStatus.Clock(
        verdict.fenced(),
        verdict.offsetMs(),
        verdict.peersMeasured(),
        verdict.peersOut(),
        verdict.reason());
  }

  /** The hints this node holds for others: how many in all, for each target, and their bytes. */
  private AdminStatus.Hints hints() {
    Map<String, Long> byTarget = maintenance.hints().pendingByTarget();
    long total = byTarget.values().stream().mapToLong(Long::longValue).sum();
    return new AdminStatus.Hints(total, byTarget, maintenance.hints().storedBytes());
  }

  private static void json(HttpServerRequest request, String body) {
    request.response().putHeader(HttpHeaders.CONTENT_TYPE, "application/json").end(body);
  }
}
