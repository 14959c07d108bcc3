package dev.dht.node.http;

import dev.dht.node.bootstrap.DataState;
import dev.dht.node.cluster.HybridClock;
import dev.dht.node.metrics.NodeMetrics;
import dev.dht.node.replication.LocalReplica;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import java.util.function.BooleanSupplier;

/** Status, liveness, readiness and Prometheus metrics. */
final class ServiceHandler {
  private final LocalReplica local;
  private final HybridClock clock;
  private final NodeMetrics metrics;
  private final BooleanSupplier stopping;

  ServiceHandler(
      LocalReplica local, HybridClock clock, NodeMetrics metrics, BooleanSupplier stopping) {
    this.local = local;
    this.clock = clock;
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
   * Ready once storage is open (membership is known from start-up on: the node needs it), the node
   * is not pulling the data it lost and its clock is not fenced (it would refuse every write), and
   * no longer from the moment a stop begins, before the listener closes, so that load balancers
   * stop sending requests first.
   */
  void ready(HttpServerRequest request) {
    String fenced = clock.fencedReason();
    if (stopping.getAsBoolean()) {
      Responses.text(request, 503, "stopping");
    } else if (local.data().phase() == DataState.Phase.BOOTSTRAPPING) {
      Responses.text(request, 503, "bootstrapping: pulling its data from the peers");
    } else if (local.data().phase() == DataState.Phase.RESTORING) {
      Responses.text(request, 503, "restoring: loading its share of a backup");
    } else if (fenced != null) {
      Responses.text(request, 503, fenced);
    } else if (local.storage().isOpen()) {
      Responses.text(request, 200, "ready");
    } else {
      Responses.text(request, 503, "storage is closed");
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
