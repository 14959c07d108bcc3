package dev.dht.node.http;

import dev.dht.node.cluster.ClusterSecrets;
import dev.dht.node.cluster.HybridClock;
import dev.dht.node.metrics.NodeMetrics;
import dev.dht.node.repair.RepairApi;
import dev.dht.node.replication.BatchCodec;
import dev.dht.node.replication.InternalApi;
import dev.dht.node.replication.LocalReplica;
import dev.dht.node.replication.ReplicaOp;
import dev.dht.node.storage.Record;
import dev.dht.node.tls.TlsReloader;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The replica side of {@link InternalApi}: only peers holding the cluster secret get in. Peers have
 * their own admission (requests and body bytes), so clients can never starve replication. Work is
 * dropped once the coordinator's deadline has passed, and each write stamped further ahead than the
 * maximum clock offset is refused (that op fails; the others of the batch run). While this node's
 * clock is fenced, it refuses every batch: a replica behind would refuse every write, one ahead
 * would accept writes from the future, and its peers then count it as down (hints, the other
 * replicas' quorum) instead. Every answer carries this node's wall clock, for the peer to measure
 * the offset between the two.
 */
final class InternalHandler {
  private static final Logger log = LoggerFactory.getLogger(InternalHandler.class);
  private final LocalReplica local;
  private final HybridClock clock;
  private final Admission admission;
  private final Limits limits;
  private final NodeMetrics metrics;
  private static final long REFUSAL_LOG_PERIOD_NANOS = 10_000_000_000L;

  private final ClusterSecret secret;
  private long lastRefusalLog = System.nanoTime() - REFUSAL_LOG_PERIOD_NANOS;
  private long refusedSinceLog;
  private final long requestTimeoutMs;
  private final RepairHandler repairs;

  InternalHandler(
      LocalReplica local,
      HybridClock clock,
      Admission admission,
      Limits limits,
      NodeMetrics metrics,
      ClusterSecrets secret,
      TlsReloader tls,
      long requestTimeoutMs,
      RepairHandler repairs) {
    this.repairs = repairs;
    this.local = local;
    this.clock = clock;
    this.admission = admission;
    this.limits = limits;
    this.metrics = metrics;
    this.secret = new ClusterSecret(secret, tls);
    this.requestTimeoutMs = requestTimeoutMs;
  }

  /** Says so in the log, at most once every 10 s per event loop: a peer with another secret. */
  private void refused(HttpServerRequest request) {
    refusedSinceLog++;
    long now = System.nanoTime();
    if (now - lastRefusalLog >= REFUSAL_LOG_PERIOD_NANOS) {
      log.warn(
          "refused internal request from {}: missing or wrong cluster secret ({} refused)",
          request.remoteAddress(),
          refusedSinceLog);
      lastRefusalLog = now;
      refusedSinceLog = 0;
    }
  }

  void handle(HttpServerRequest request, RequestBody body) {
    if (!secret.admits(request)) {
      refused(request);
      Responses.text(request, 403, "internal API: missing or wrong cluster secret");
      return;
    }
    request.response().putHeader(InternalApi.WALL_CLOCK_HEADER, Long.toString(clock.wallMillis()));
    String path = request.path();
    if (InternalApi.CLOCK_PATH.equals(path)) {
      Responses.empty(request, 204);
      return;
    }
    boolean repair = RepairApi.DIGESTS_PATH.equals(path) || RepairApi.ENTRIES_PATH.equals(path);
    if (!InternalApi.BATCH_PATH.equals(path) && !repair) {
      Responses.text(request, 400, "unknown internal path " + path);
      return;
    }
    if (request.method() != HttpMethod.POST) {
      request.response().putHeader(HttpHeaders.ALLOW, "POST");
      Responses.text(request, 405, "method " + request.method() + " is not allowed here");
      return;
    }
    if (repair) {
      if (!admission.tryAcquire()) {
        Responses.overloaded(request, "too many internal requests in flight");
        return;
      }
      repairs.handle(request, body, admission, admission::release);
      return;
    }
    String fenced = clock.fencedReason();
    if (fenced != null) {
      Responses.text(request, 503, fenced);
      return;
    }
    long deadlineNanos;
    try {
      deadlineNanos = deadline(request.getHeader(InternalApi.DEADLINE_HEADER));
    } catch (NumberFormatException e) {
      Responses.text(request, 400, InternalApi.DEADLINE_HEADER + " must be a number of ms");
      return;
    }
    if (!admission.tryAcquire()) {
      Responses.overloaded(request, "too many internal requests in flight");
      return;
    }
    int maxRecord = limits.maxValueBytes() + Record.HEADER_BYTES;
    body.read(InternalApi.maxBatchBytes(limits.maxKeyBytes(), limits.maxValueBytes()), admission)
        .compose(batch -> {
          Future<Buffer> results;
          try {
            results =
                apply(BatchCodec.decodeOps(batch, limits.maxKeyBytes(), maxRecord), deadlineNanos);
          } catch (RuntimeException e) {
            results = Future.failedFuture(e);
          }
          return results.andThen(done -> admission.releaseBytes(batch.length()));
        })
        .onComplete(done -> {
          admission.release();
          if (done.succeeded()) {
            Responses.bytes(request, done.result());
          } else if (done.cause() instanceof BatchCodec.MalformedException e) {
            Responses.text(request, 400, "malformed batch: " + e.getMessage());
          } else if (done.cause() instanceof RefusedException e) {
            Responses.text(request, e.status, e.getMessage());
          } else {
            Failures.answer(request, done.cause());
          }
        });
  }

  /** The local deadline: the time the coordinator has left, at most this node's own timeout. */
  private long deadline(String header) {
    long ms = header == null ? requestTimeoutMs : Long.parseLong(header);
    return System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Math.clamp(ms, 0, requestTimeoutMs));
  }

  private Future<Buffer> apply(List<ReplicaOp> ops, long deadlineNanos) {
    if (System.nanoTime() - deadlineNanos >= 0) {
      metrics.internalExpired();
      return Future.failedFuture(
          new RefusedException(504, "the coordinator's deadline passed before the batch ran"));
    }
    List<Future<Record>> answers = new ArrayList<>(ops.size());
    for (ReplicaOp op : ops) {
      if (op.isWrite() && !clock.observe(op.record().timestamp())) {
        answers.add(Future.failedFuture(aheadOfClock(op.record().timestamp())));
      } else {
        answers.add(local.apply(op, deadlineNanos));
      }
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

  /** A write stamped beyond the maximum clock offset: refused alone, logged, counted. */
  private RuntimeException aheadOfClock(long timestamp) {
    metrics.clockOffsetRefused();
    String reason =
        "a write is stamped "
            + clock.aheadOfWallMs(timestamp)
            + " ms ahead of this node's clock, more than the maximum clock offset of "
            + clock.maxOffsetMs()
            + " ms: check the coordinator's clock (NTP)";
    log.warn("refused: {}", reason);
    return new IllegalStateException(reason);
  }

  /** A batch this replica will not run, with the status and reason of the answer. */
  private static final class RefusedException extends RuntimeException
      implements Failures.ClientFacing {
    final int status;

    RefusedException(int status, String reason) {
      super(reason, null, false, false);
      this.status = status;
    }
  }
}
