package dev.dht.node.http;

import dev.dht.node.cluster.HybridClock;
import dev.dht.node.replication.InternalApi;
import dev.dht.node.replication.LocalReplica;
import dev.dht.node.storage.Record;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/** The replica side of {@link InternalApi}: only peers holding the cluster secret get in. */
final class InternalHandler {
  private final LocalReplica local;
  private final HybridClock clock;
  private final Admission admission;
  private final Limits limits;
  private final byte[] secret;

  InternalHandler(
      LocalReplica local, HybridClock clock, Admission admission, Limits limits, String secret) {
    this.local = local;
    this.clock = clock;
    this.admission = admission;
    this.limits = limits;
    this.secret = secret == null ? null : secret.getBytes(StandardCharsets.UTF_8);
  }

  void handle(HttpServerRequest request) {
    if (!authorized(request.getHeader(InternalApi.SECRET_HEADER))) {
      Responses.text(request, 403, "internal API: missing or wrong cluster secret");
      return;
    }
    if (!InternalApi.ENTRY_PATH.equals(request.path())) {
      Responses.text(request, 400, "unknown internal path " + request.path());
      return;
    }
    String key = request.getParam("id");
    String invalid = KeyRules.check(key, limits.maxKeyBytes(), "id");
    if (invalid != null) {
      Responses.text(request, 400, invalid);
      return;
    }
    HttpMethod method = request.method();
    if (method != HttpMethod.GET && method != HttpMethod.PUT) {
      request.response().putHeader(HttpHeaders.ALLOW, "GET, PUT");
      Responses.text(request, 405, "method " + method + " is not allowed here");
      return;
    }
    if (!admission.tryAcquire()) {
      Responses.overloaded(request);
      return;
    }
    byte[] keyBytes = key.getBytes(StandardCharsets.UTF_8);
    if (method == HttpMethod.GET) {
      local
          .get(keyBytes)
          .onComplete(done -> {
            admission.release();
            if (done.failed()) {
              Failures.answer(request, done.cause());
            } else if (done.result() == null) {
              Responses.empty(request, 404);
            } else {
              Responses.bytes(request, Buffer.buffer(done.result().encoded()));
            }
          });
    } else {
      BodyReader.read(request, limits.maxValueBytes() + Record.HEADER_BYTES)
          .compose(body -> {
            Record record = Record.decode(body.getBytes());
            clock.observe(record.timestamp());
            return local.write(keyBytes, record);
          })
          .onComplete(done -> {
            admission.release();
            if (done.failed()) {
              Failures.answer(request, done.cause());
            } else {
              Responses.empty(request, 201);
            }
          });
    }
  }

  private boolean authorized(String presented) {
    return secret == null
        || (presented != null
            && MessageDigest.isEqual(secret, presented.getBytes(StandardCharsets.UTF_8)));
  }
}
