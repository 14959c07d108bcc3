package dev.dht.node.http;

import dev.dht.contract.UsersDocument.Operation;
import dev.dht.node.auth.ClientUser;
import dev.dht.node.cluster.HybridClock;
import dev.dht.node.cluster.Replication;
import dev.dht.node.cluster.Topology;
import dev.dht.node.replication.Coordinator;
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
  private final ClientGate gate;

  EntityHandler(
      Coordinator coordinator,
      HybridClock clock,
      Admission admission,
      Limits limits,
      ClientGate gate) {
    this.coordinator = coordinator;
    this.clock = clock;
    this.admission = admission;
    this.limits = limits;
    this.gate = gate;
  }

  /** A request of {@code user}, admitted by the {@link ClientGate} already. */
  void handle(HttpServerRequest request, RequestBody body, ClientUser user) {
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
    Operation operation =
        method == HttpMethod.GET
            ? Operation.READ
            : method == HttpMethod.PUT ? Operation.WRITE : Operation.DELETE;
    if (!gate.allows(request, user, operation, keyBytes)) {
      return;
    }
    Topology topology = coordinator.cluster().topology();
    Replication.Rings replication;
    try {
      replication = topology.resolve(query.text("ack"), query.text("from"));
    } catch (Replication.InvalidException e) {
      Responses.text(request, 400, e.getMessage());
      return;
    }
    if (!admission.tryAcquire()) {
      Responses.overloaded(request);
      return;
    }
    Future<Integer> status;
    try {
      status =
          switch (method.name()) {
            case "GET" -> get(request, topology, keyBytes, replication);
            case "PUT" -> put(body, topology, keyBytes, replication);
            default -> delete(topology, keyBytes, replication);
          };
    } catch (RuntimeException e) {
      status = Future.failedFuture(e);
    }
    status.onComplete(done -> {
      admission.release();
      answer(request, done);
    });
  }

  private Future<Integer> get(
      HttpServerRequest request, Topology topology, byte[] keyBytes, Replication.Rings r) {
    return coordinator
        .read(topology, keyBytes, r)
        .map(newest -> {
          if (newest == null || newest.tombstone()) {
            return 404;
          }
          if (request.response().ended() || request.response().closed()) {
            return 200; // answered already (a body timeout) or its client left
          }
          Buffer value =
              Buffer.buffer(newest.encoded()).slice(Record.HEADER_BYTES, newest.encoded().length);
          Responses.bytes(request, value);
          return 200;
        });
  }

  /** The body's bytes stay reserved from the admission budget until the write is done. */
  private Future<Integer> put(
      RequestBody body, Topology topology, byte[] keyBytes, Replication.Rings r) {
    return body.read(limits.maxValueBytes(), admission)
        .compose(value -> {
          Future<Record> written;
          try {
            byte[] encoded = Record.encodedValueOf(clock.next(), value.length());
            value.getBytes(0, value.length(), encoded, Record.HEADER_BYTES);
            written = coordinator.write(topology, keyBytes, Record.decode(encoded), r);
          } catch (RuntimeException e) {
            written = Future.failedFuture(e);
          }
          return written.andThen(done -> admission.releaseBytes(value.length()));
        })
        .map(201);
  }

  private Future<Integer> delete(Topology topology, byte[] keyBytes, Replication.Rings r) {
    return coordinator.write(topology, keyBytes, Record.tombstone(clock.next()), r).map(202);
  }

  /** Writes the answer unless the success path already did. */
  private static void answer(HttpServerRequest request, AsyncResult<Integer> done) {
    if (done.failed()) {
      Failures.answer(request, done.cause());
    } else if (done.result() != 200
        && !request.response().ended()
        && !request.response().closed()) {
      Responses.empty(request, done.result());
    }
  }
}
