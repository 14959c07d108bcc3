package dev.dht.node.http;

import dev.dht.node.cluster.HybridClock;
import dev.dht.node.replication.BatchCodec;
import dev.dht.node.replication.InternalApi;
import dev.dht.node.replication.PeerFrames;
import dev.dht.node.replication.ReplicaOp;
import dev.dht.node.storage.Record;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetSocket;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * The replica side of one {@link PeerFrames} connection. Each OPS frame is admitted as an HTTP
 * batch is (one of the peers' requests in flight, and its bytes), refused while this node's clock
 * is fenced, run by {@link ReplicaBatches} within the time its coordinator has left (at most this
 * node's own timeout), and answered with a RESULTS frame carrying this node's wall clock, or a
 * REFUSED one with the status an HTTP batch would have got. Once the connection's credentials are
 * no longer accepted (a rotated secret), its next frame is refused and the connection closed. While
 * answers wait to be written, no more frames are read. When the server shuts down, the batches
 * being run are answered, later frames refused, and then the connection is ended. A frame is held
 * outside the peers' byte budget until it has arrived whole (one per connection, within the largest
 * batch; only an authenticated peer gets a connection). Used from its event loop only.
 */
final class PeerSession {
  private final NetSocket socket;
  private final BooleanSupplier admitted;
  private final ReplicaBatches batches;
  private final HybridClock clock;
  private final Admission admission;
  private final Limits limits;
  private final long requestTimeoutMs;
  private final PeerFrames.Reader reader;
  private int inFlight;
  private boolean stopping;

  PeerSession(
      NetSocket socket,
      BooleanSupplier admitted,
      ReplicaBatches batches,
      HybridClock clock,
      Admission admission,
      Limits limits,
      long requestTimeoutMs) {
    this.socket = socket;
    this.admitted = admitted;
    this.batches = batches;
    this.clock = clock;
    this.admission = admission;
    this.limits = limits;
    this.requestTimeoutMs = requestTimeoutMs;
    long maxPayload =
        Integer.BYTES + InternalApi.maxBatchBytes(limits.maxKeyBytes(), limits.maxValueBytes());
    this.reader =
        new PeerFrames.Reader((kind, id) -> kind == PeerFrames.OPS ? maxPayload : -1, this::frame);
  }

  void start() {
    socket.handler(chunk -> {
      try {
        reader.feed(chunk);
      } catch (RuntimeException e) { // malformed: the stream cannot be followed any further
        socket.write(PeerFrames.refused(0, 400, "malformed frame: " + e.getMessage()));
        socket.end();
      }
    });
    socket.drainHandler(v -> socket.resume());
    socket.shutdownHandler(v -> stop());
    socket.exceptionHandler(e -> socket.close());
  }

  private void frame(PeerFrames.Frame frame) {
    int id = frame.id();
    if (!admitted.getAsBoolean()) {
      answer(PeerFrames.refused(id, 403, "internal API: missing or wrong cluster secret"));
      socket.end();
      return;
    }
    if (stopping) {
      answer(PeerFrames.refused(id, 503, "the node is stopping"));
      return;
    }
    String fenced = clock.fencedReason();
    if (fenced != null) {
      answer(PeerFrames.refused(id, 503, fenced));
      return;
    }
    Buffer payload = frame.payload();
    int bytes = payload.length();
    if (!admission.tryAcquire()) {
      answer(PeerFrames.refused(id, 503, "too many internal requests in flight"));
      return;
    }
    if (!admission.tryReserveBytes(bytes)) {
      admission.release();
      answer(PeerFrames.refused(id, 503, "too many internal request bytes in flight"));
      return;
    }
    inFlight++;
    Future<List<BatchCodec.Result>> results;
    try {
      results = batches.apply(ops(payload), deadline(payload));
    } catch (RuntimeException e) {
      results = Future.failedFuture(e);
    }
    results.onComplete(done -> {
      admission.release();
      admission.releaseBytes(bytes);
      inFlight--;
      if (done.succeeded()) {
        answer(PeerFrames.results(id, clock.wallMillis(), done.result()));
      } else if (done.cause() instanceof BatchCodec.MalformedException e) {
        answer(PeerFrames.refused(id, 400, "malformed batch: " + e.getMessage()));
      } else if (done.cause() instanceof ReplicaBatches.RefusedException e) {
        answer(PeerFrames.refused(id, e.status, e.getMessage()));
      } else {
        answer(PeerFrames.refused(id, 500, String.valueOf(done.cause().getMessage())));
      }
      if (stopping && inFlight == 0) {
        socket.end();
      }
    });
  }

  /**
   * The server shuts down: the batches being run are answered, later frames are refused (503), and
   * the connection is ended (after its answers are written) once none is left.
   */
  private void stop() {
    stopping = true;
    if (inFlight == 0) {
      socket.end();
    }
  }

  private List<ReplicaOp> ops(Buffer payload) {
    if (payload.length() < Integer.BYTES) {
      throw new BatchCodec.MalformedException("ops of " + payload.length() + " bytes");
    }
    return BatchCodec.decodeOps(
        payload.slice(Integer.BYTES, payload.length()),
        limits.maxKeyBytes(),
        limits.maxValueBytes() + Record.HEADER_BYTES);
  }

  /** The time the coordinator has left, at most this node's own timeout. */
  private long deadline(Buffer payload) {
    long ms = Math.clamp(payload.getInt(0), 0, requestTimeoutMs);
    return System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);
  }

  private void answer(Buffer frame) {
    socket.write(frame);
    if (socket.writeQueueFull()) {
      socket.pause();
    }
  }
}
