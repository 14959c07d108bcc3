package dev.dht.node.http;

import dev.dht.node.cluster.HybridClock;
import dev.dht.node.cluster.Topology;
import dev.dht.node.metrics.NodeMetrics;
import dev.dht.node.replication.Coordinator;
import dev.dht.node.replication.Replication;
import dev.dht.node.storage.Record;
import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;

/** {@code /v0/entity} and {@code /v0/entry}: the replicated GET, PUT and DELETE of one key. */
final class EntityHandler {
  private final Coordinator coordinator;
  private final HybridClock clock;
  private final Admission admission;
  private final Limits limits;
  private final NodeMetrics metrics;

  EntityHandler(
      Coordinator coordinator,
      HybridClock clock,
      Admission admission,
      Limits limits,
      NodeMetrics metrics) {
    this.coordinator = coordinator;
    this.clock = clock;
    this.admission = admission;
    this.limits = limits;
    this.metrics = metrics;
  }

  void handle(HttpServerRequest request) {
    Query query = new Query(request.query());
    byte[] keyBytes = query.bytes("id");
    String invalidKey = KeyRules.check(keyBytes, limits.maxKeyBytes(), "id");
    if (invalidKey != null) {
      Responses.text(request, 400, invalidKey);
      return;
    }
    HttpMethod method = request.method();
    if (method != HttpMethod.GET && method != HttpMethod.PUT && method != HttpMethod.DELETE) {
      request.response().putHeader(HttpHeaders.ALLOW, "GET, PUT, DELETE");
      Responses.text(request, 405, "method " + method + " is not allowed here");
      return;
    }
    Topology topology = coordinator.cluster().topology();
    Replication replication;
    try {
      replication =
          Replication.resolve(
              query.text("ack"),
              query.text("from"),
              coordinator.cluster().defaults(),
              topology.size());
    } catch (Replication.InvalidException e) {
      Responses.text(request, 400, e.getMessage());
      return;
    }
    if (!admission.tryAcquire()) {
      metrics.request(operation(method), 503, 0);
      Responses.overloaded(request);
      return;
    }
    long start = System.nanoTime();
    Future<Integer> status =
        switch (method.name()) {
          case "GET" -> get(request, topology, keyBytes, replication);
          case "PUT" -> put(request, topology, keyBytes, replication);
          default -> delete(topology, keyBytes, replication);
        };
    status.onComplete(done -> {
      admission.release();
      int code = answer(request, done);
      metrics.request(operation(method), code, System.nanoTime() - start);
    });
  }

  private Future<Integer> get(
      HttpServerRequest request, Topology topology, byte[] keyBytes, Replication r) {
    return coordinator
        .read(topology, keyBytes, r)
        .map(newest -> {
          if (newest == null || newest.tombstone()) {
            return 404;
          }
          Buffer value =
              Buffer.buffer(newest.encoded()).slice(Record.HEADER_BYTES, newest.encoded().length);
          Responses.bytes(request, value);
          return 200;
        });
  }

  private Future<Integer> put(
      HttpServerRequest request, Topology topology, byte[] keyBytes, Replication r) {
    return BodyReader.read(request, limits.maxValueBytes())
        .compose(body -> {
          byte[] encoded = Record.encodedValueOf(clock.next(), body.length());
          body.getBytes(0, body.length(), encoded, Record.HEADER_BYTES);
          return coordinator.write(topology, keyBytes, Record.decode(encoded), r);
        })
        .map(201);
  }

  private Future<Integer> delete(Topology topology, byte[] keyBytes, Replication r) {
    return coordinator.write(topology, keyBytes, Record.tombstone(clock.next()), r).map(202);
  }

  /** Writes the answer unless the success path already did; returns the status sent. */
  private static int answer(HttpServerRequest request, AsyncResult<Integer> done) {
    if (done.succeeded()) {
      int status = done.result();
      if (status != 200) {
        Responses.empty(request, status);
      }
      return status;
    }
    return Failures.answer(request, done.cause());
  }

  /** The metrics tag of a method (constants: this runs on every request). */
  private static String operation(HttpMethod method) {
    return method == HttpMethod.GET ? "get" : method == HttpMethod.PUT ? "put" : "delete";
  }
}
