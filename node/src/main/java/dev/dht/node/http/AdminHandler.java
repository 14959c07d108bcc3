package dev.dht.node.http;

import dev.dht.node.cluster.ClusterSecrets;
import dev.dht.node.cluster.ClusterState;
import dev.dht.node.cluster.Topology;
import dev.dht.node.profiling.ProfileRequest;
import dev.dht.node.repair.Maintenance;
import io.vertx.core.Future;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * {@code /v0/admin/...}: what a node is doing, and the upkeep an operator starts.
 *
 * <ul>
 *   <li>{@code GET status}: membership epoch and member states, repair, streaming and cleanup
 *       progress, hints held for others, estimated keys and SST bytes, settings (JSON);
 *   <li>{@code GET repair}: the repair status alone;
 *   <li>{@code POST repair | stream | cleanup}: starts one now ({@code 202}; {@code 409} if one
 *       runs, or cleanup during a transition). POSTs need the cluster secret header, as internal
 *       requests do;
 *   <li>{@code POST profile?events=cpu,alloc,lock&seconds=30}: profiles the JVM with async-profiler
 *       ({@code 202}; {@code 409} if a profile runs); {@code GET profile}: its state; {@code GET
 *       profile/<event>.html}: the last profile's flame graph of an event.
 * </ul>
 */
final class AdminHandler {
  static final String PREFIX = "/v0/admin/";
  private static final String FLAME_GRAPHS = "profile/";

  private final ClusterState cluster;
  private final Maintenance maintenance;
  private final ClusterSecret secret;

  private final ClusterSecrets secrets;

  AdminHandler(ClusterState cluster, Maintenance maintenance, ClusterSecrets secrets) {
    this.cluster = cluster;
    this.maintenance = maintenance;
    this.secrets = secrets;
    this.secret = new ClusterSecret(secrets);
  }

  void handle(HttpServerRequest request) {
    String what = request.path().substring(PREFIX.length());
    if (request.method() == HttpMethod.GET) {
      switch (what) {
        case "status" -> json(request, status());
        case "repair" -> json(request, maintenance.repairer().status().toJson());
        case "profile" -> json(request, maintenance.profiler().toJson());
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
    if (request.method() != HttpMethod.POST) {
      request.response().putHeader(HttpHeaders.ALLOW, "GET, POST");
      Responses.text(request, 405, "method " + request.method() + " is not allowed here");
      return;
    }
    if (!secret.admits(request)) {
      Responses.text(request, 403, "admin actions need the cluster secret header");
      return;
    }
    if (what.equals("profile")) {
      profile(request);
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

  private JsonObject status() {
    Topology topology = cluster.topology();
    var storage = maintenance.storage();
    JsonArray members = new JsonArray();
    for (int m = 0; m < topology.members().size(); m++) {
      members.add(
          new JsonObject()
              .put("url", topology.member(m))
              .put("state", topology.state(m).name().toLowerCase()));
    }
    return new JsonObject()
        .put("self", topology.self())
        .put("epoch", topology.epoch())
        .put("inTransition", topology.inTransition())
        .put("readFrom", topology.readsNext() ? "next" : "current")
        .put("members", members)
        .put("defaultAck", cluster.defaults().ack())
        .put("defaultFrom", cluster.defaults().from())
        .put("repair", maintenance.repairer().status().toJson())
        .put("stream", maintenance.streamer().status().toJson())
        .put("cleanup", maintenance.cleanup().toJson())
        .put("hints", hints())
        .put(
            "storage",
            new JsonObject()
                .put("estimatedKeys", storage.longProperty("rocksdb.estimate-num-keys"))
                .put("sstBytes", storage.longProperty("rocksdb.total-sst-files-size")))
        .put("secretFingerprints", secrets.fingerprints())
        .put("settings", maintenance.settings());
  }

  /** The hints this node holds for others: how many in all, for each target, and their bytes. */
  private JsonObject hints() {
    JsonObject byTarget = new JsonObject();
    long total = 0;
    for (var target : maintenance.hints().pendingByTarget().entrySet()) {
      byTarget.put(target.getKey(), target.getValue());
      total += target.getValue();
    }
    return new JsonObject()
        .put("pending", total)
        .put("pendingByTarget", byTarget)
        .put("bytes", maintenance.hints().storedBytes());
  }

  private static void json(HttpServerRequest request, JsonObject body) {
    request.response().putHeader(HttpHeaders.CONTENT_TYPE, "application/json").end(body.encode());
  }
}
