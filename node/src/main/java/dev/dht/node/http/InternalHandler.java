package dev.dht.node.http;

import dev.dht.node.cluster.ClusterSecrets;
import dev.dht.node.cluster.HybridClock;
import dev.dht.node.metrics.NodeMetrics;
import dev.dht.node.repair.RepairApi;
import dev.dht.node.replication.BatchCodec;
import dev.dht.node.replication.InternalApi;
import dev.dht.node.replication.LocalReplica;
import dev.dht.node.replication.PeerFrames;
import dev.dht.node.storage.Record;
import dev.dht.node.tls.TlsReloader;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
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
  private final ReplicaBatches batches;
  private final HybridClock clock;
  private final Admission admission;
  private final Limits limits;
  private final boolean framed;
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
      boolean framed,
      RepairHandler repairs) {
    this.repairs = repairs;
    this.batches = new ReplicaBatches(local, clock, metrics);
    this.clock = clock;
    this.admission = admission;
    this.limits = limits;
    this.framed = framed;
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
    if (framed && PeerFrames.PATH.equals(path)) {
      upgrade(request);
      return;
    }
    boolean repair =
        RepairApi.DIGESTS_PATH.equals(path)
            || RepairApi.ENTRIES_PATH.equals(path)
            || RepairApi.FILES_PATH.equals(path);
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
                batches
                    .apply(
                        BatchCodec.decodeOps(batch, limits.maxKeyBytes(), maxRecord), deadlineNanos)
                    .map(BatchCodec::encodeResults);
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
          } else if (done.cause() instanceof ReplicaBatches.RefusedException e) {
            Responses.text(request, e.status, e.getMessage());
          } else {
            Failures.answer(request, done.cause());
          }
        });
  }

  /** Turns the connection into a {@link PeerSession}, if the request asks for the protocol. */
  private void upgrade(HttpServerRequest request) {
    String upgrade = request.getHeader(HttpHeaders.UPGRADE);
    if (request.method() != HttpMethod.GET || !PeerFrames.PROTOCOL.equalsIgnoreCase(upgrade)) {
      Responses.text(
          request, 400, PeerFrames.PATH + " takes GET with Upgrade: " + PeerFrames.PROTOCOL);
      return;
    }
    request
        .toNetSocket()
        .onSuccess(socket ->
            new PeerSession(
                    socket,
                    () -> secret.admits(request),
                    batches,
                    clock,
                    admission,
                    limits,
                    requestTimeoutMs)
                .start());
  }

  /** The local deadline: the time the coordinator has left, at most this node's own timeout. */
  private long deadline(String header) {
    long ms = header == null ? requestTimeoutMs : Long.parseLong(header);
    return System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Math.clamp(ms, 0, requestTimeoutMs));
  }
}
