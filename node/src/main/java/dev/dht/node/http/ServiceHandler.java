package dev.dht.node.http;

import dev.dht.node.metrics.NodeMetrics;
import dev.dht.node.repair.Repairer;
import dev.dht.node.replication.InternalApi;
import dev.dht.node.replication.LocalReplica;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.function.BooleanSupplier;

/** Status, liveness, readiness and Prometheus metrics. */
final class ServiceHandler {
  private final LocalReplica local;
  private final NodeMetrics metrics;
  private final BooleanSupplier stopping;
  private final Repairer repairer;
  private final byte[] secret;

  ServiceHandler(
      LocalReplica local,
      NodeMetrics metrics,
      BooleanSupplier stopping,
      Repairer repairer,
      String secret) {
    this.repairer = repairer;
    this.secret = secret == null ? null : secret.getBytes(StandardCharsets.UTF_8);
    this.local = local;
    this.metrics = metrics;
    this.stopping = stopping;
  }

  void status(HttpServerRequest request) {
    Responses.text(request, 200, "OK");
  }

  void live(HttpServerRequest request) {
    Responses.text(request, 200, "live");
  }

  /**
   * Ready once storage is open (membership is known from start-up on: the node needs it), and no
   * longer from the moment a stop begins, before the listener closes, so that load balancers stop
   * sending requests first.
   */
  void ready(HttpServerRequest request) {
    if (stopping.getAsBoolean()) {
      Responses.text(request, 503, "stopping");
    } else if (local.storage().isOpen()) {
      Responses.text(request, 200, "ready");
    } else {
      Responses.text(request, 503, "storage is closed");
    }
  }

  /**
   * {@code GET /v0/admin/repair}: this node's repair status (JSON). {@code POST}: starts a run now
   * (202; 409 if one is running); it needs the cluster secret header, as internal requests do.
   */
  void repair(HttpServerRequest request) {
    if (request.method() == HttpMethod.GET) {
      request
          .response()
          .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
          .end(repairer.status().toJson().encode());
    } else if (request.method() == HttpMethod.POST) {
      String presented = request.getHeader(InternalApi.SECRET_HEADER);
      if (secret != null
          && (presented == null
              || !MessageDigest.isEqual(secret, presented.getBytes(StandardCharsets.UTF_8)))) {
        Responses.text(request, 403, "starting a repair needs the cluster secret header");
        return;
      }
      repairer
          .runNow()
          .onSuccess(started ->
              Responses.text(
                  request,
                  started ? 202 : 409,
                  started ? "repair started" : "a repair is running already"));
    } else {
      request.response().putHeader(HttpHeaders.ALLOW, "GET, POST");
      Responses.text(request, 405, "method " + request.method() + " is not allowed here");
    }
  }

  void metrics(HttpServerRequest request) {
    local
        .pool()
        .executeBlocking(metrics::scrape, false)
        .onSuccess(text ->
            request
                .response()
                .putHeader(HttpHeaders.CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8")
                .end(text))
        .onFailure(e -> Failures.answer(request, e));
  }
}
