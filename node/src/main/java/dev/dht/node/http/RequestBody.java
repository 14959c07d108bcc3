package dev.dht.node.http;

import dev.dht.node.loop.DelayedActions;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.HttpVersion;

/**
 * The body of one request, guarded from the moment the request arrives: it must arrive in full
 * within the body deadline, else the request gets 408 (unless answered already) and its connection
 * is closed, so a slow or stalled sender holds neither a connection nor a buffer for long. Until a
 * handler reads it, the body is drained and discarded; a handler that answers without reading needs
 * to do nothing. A read keeps at most the size limit (413) and takes memory from a byte budget as
 * bytes arrive (503 past it), never up front from a declared length. Used from the request's event
 * loop only.
 */
final class RequestBody {
  /** The most a declared {@code Content-Length} pre-sizes the buffer; it grows as bytes arrive. */
  private static final int MAX_INITIAL_CAPACITY = 16 * 1024;

  /** A request that carries no body: reading it gives an empty buffer at once. */
  private static final RequestBody NONE = new RequestBody(null, null);

  private final HttpServerRequest request;
  private final DelayedActions.Scheduled deadline;
  private final long deadlineMs;
  private Read read;

  private RequestBody(HttpServerRequest request, DelayedActions deadlines) {
    this.request = request;
    this.deadline = deadlines == null ? null : deadlines.schedule(this::expire);
    this.deadlineMs = deadlines == null ? 0 : deadlines.delayMs();
  }

  /**
   * Starts guarding the body of {@code request} (if it has one): drained until read, and bounded by
   * the deadline of {@code deadlines}, which run their actions the body timeout after scheduling.
   */
  static RequestBody guard(HttpServerRequest request, DelayedActions deadlines) {
    if (!hasBody(request)) {
      return NONE;
    }
    RequestBody body = new RequestBody(request, deadlines);
    request.handler(chunk -> body.chunk(chunk));
    request.endHandler(v -> body.end());
    request.exceptionHandler(body::failed);
    return body;
  }

  /**
   * The whole body, at most {@code maxBytes}, with its bytes reserved from {@code budget}. On
   * success the caller holds {@code body.length()} bytes of the budget and gives them back with
   * {@link Admission#releaseBytes}; on failure nothing is held and the rest of the body is drained.
   */
  Future<Buffer> read(int maxBytes, Admission budget) {
    if (request == null) {
      return Future.succeededFuture(Buffer.buffer(0));
    }
    if (read != null || request.isEnded()) {
      throw new IllegalStateException("the body was read already");
    }
    long declared = declaredLength(request);
    if (declared > maxBytes) {
      return Future.failedFuture(new BodyTooLargeException(maxBytes));
    }
    if (request.version() == HttpVersion.HTTP_1_1
        && "100-continue".equalsIgnoreCase(request.getHeader(HttpHeaders.EXPECT))) {
      request.response().writeContinue();
    }
    read = new Read(maxBytes, budget, (int) Math.clamp(declared, 64, MAX_INITIAL_CAPACITY));
    return read.promise.future();
  }

  private void chunk(Buffer chunk) {
    if (read != null) {
      read.chunk(chunk);
    } // else: nobody reads this body; it is discarded
  }

  private void end() {
    deadline.cancel();
    if (read != null) {
      read.end();
    }
  }

  private void failed(Throwable cause) {
    deadline.cancel();
    if (read != null) {
      read.fail(new BrokenBodyException(cause));
    }
  }

  /** The body did not finish in time: 408 unless answered already, then close either way. */
  private void expire() {
    if (request.isEnded()) {
      return;
    }
    BodyTimeoutException timeout = new BodyTimeoutException(deadlineMs);
    HttpServerResponse response = request.response();
    if (response.headWritten() || response.ended() || response.closed()) {
      request.connection().close();
    } else {
      Responses.textThenClose(request, 408, timeout.getMessage());
    }
    if (read != null) {
      read.fail(timeout);
    }
  }

  /** Whether the request declares a body (a non-zero length, or a transfer encoding). */
  static boolean hasBody(HttpServerRequest request) {
    String length = request.getHeader(HttpHeaders.CONTENT_LENGTH);
    return (length != null && !length.equals("0"))
        || request.headers().contains(HttpHeaders.TRANSFER_ENCODING);
  }

  private static long declaredLength(HttpServerRequest request) {
    String value = request.getHeader(HttpHeaders.CONTENT_LENGTH);
    if (value == null) {
      return -1;
    }
    try {
      return Long.parseLong(value);
    } catch (NumberFormatException e) {
      return -1; // Netty rejects malformed lengths before we get here
    }
  }

  /** A read in progress; once failed, it gives back its bytes and the rest is discarded. */
  private static final class Read {
    final int maxBytes;
    final Admission budget;
    final Promise<Buffer> promise = Promise.promise();
    Buffer body;

    Read(int maxBytes, Admission budget, int initialCapacity) {
      this.maxBytes = maxBytes;
      this.budget = budget;
      this.body = Buffer.buffer(initialCapacity);
    }

    void chunk(Buffer chunk) {
      if (body == null) {
        return;
      }
      if (body.length() + chunk.length() > maxBytes) {
        fail(new BodyTooLargeException(maxBytes));
      } else if (!budget.tryReserveBytes(chunk.length())) {
        fail(new OverloadedException("request bodies in flight are over this node's byte budget"));
      } else {
        body.appendBuffer(chunk);
      }
    }

    void end() {
      if (body != null) {
        Buffer complete = body;
        body = null;
        promise.complete(complete);
      }
    }

    void fail(Throwable cause) {
      if (body != null) {
        budget.releaseBytes(body.length());
        body = null;
        promise.fail(cause);
      }
    }
  }
}
