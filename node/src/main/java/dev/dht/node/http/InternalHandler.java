package dev.dht.node.http;

import dev.dht.node.cluster.HybridClock;
import dev.dht.node.replication.BatchCodec;
import dev.dht.node.replication.InternalApi;
import dev.dht.node.replication.LocalReplica;
import dev.dht.node.replication.ReplicaOp;
import dev.dht.node.storage.Record;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;

/** The replica side of {@link InternalApi}: only peers holding the cluster secret get in. */
final class InternalHandler {
  /** A batch carries at most this many values' worth of bytes (the coordinator sends less). */
  private static final int MAX_BATCH_VALUES = 16;

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
    if (!InternalApi.BATCH_PATH.equals(request.path())) {
      Responses.text(request, 400, "unknown internal path " + request.path());
      return;
    }
    if (request.method() != HttpMethod.POST) {
      request.response().putHeader(HttpHeaders.ALLOW, "POST");
      Responses.text(request, 405, "method " + request.method() + " is not allowed here");
      return;
    }
    if (!admission.tryAcquire()) {
      Responses.overloaded(request);
      return;
    }
    int maxRecord = limits.maxValueBytes() + Record.HEADER_BYTES;
    BodyReader.read(request, MAX_BATCH_VALUES * (maxRecord + limits.maxKeyBytes() + 9))
        .compose(body -> apply(BatchCodec.decodeOps(body, limits.maxKeyBytes(), maxRecord)))
        .onComplete(done -> {
          admission.release();
          if (done.succeeded()) {
            Responses.bytes(request, done.result());
          } else if (done.cause() instanceof BatchCodec.MalformedException e) {
            Responses.text(request, 400, "malformed batch: " + e.getMessage());
          } else {
            Failures.answer(request, done.cause());
          }
        });
  }

  private Future<Buffer> apply(List<ReplicaOp> ops) {
    List<Future<Record>> answers = new ArrayList<>(ops.size());
    for (ReplicaOp op : ops) {
      if (op.isWrite()) {
        clock.observe(op.record().timestamp());
      }
      answers.add(local.apply(op));
    }
    return Future.join(answers)
        .transform(ignored -> {
          List<BatchCodec.Result> results = new ArrayList<>(answers.size());
          for (Future<Record> answer : answers) {
            results.add(
                answer.succeeded()
                    ? new BatchCodec.Result(answer.result(), false)
                    : BatchCodec.Result.FAILURE);
          }
          return Future.succeededFuture(BatchCodec.encodeResults(results));
        });
  }

  private boolean authorized(String presented) {
    return secret == null
        || (presented != null
            && MessageDigest.isEqual(secret, presented.getBytes(StandardCharsets.UTF_8)));
  }
}
