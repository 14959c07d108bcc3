package dev.dht.node.http;

import dev.dht.node.cluster.ClusterSecrets;
import dev.dht.node.cluster.ClusterState;
import dev.dht.node.cluster.Topology;
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
 *       requests do.
 * </ul>
 */
final class AdminHandler {
  static final String PREFIX = "/v0/admin/";

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
        default -> Responses.text(request, 404, "no admin resource " + what);
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
