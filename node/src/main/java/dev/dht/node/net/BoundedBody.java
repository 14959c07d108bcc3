package dev.dht.node.net;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpHeaders;

/**
 * Reads a peer's answer with a size limit. {@link HttpClientResponse#body()} keeps whatever
 * arrives, so a broken or hostile peer could fill the heap with one answer; here a body declared
 * larger than the limit is refused before a byte is read, and one that grows past it (chunked, or
 * lying about its length) is cut off as soon as it does. Either way the request is reset, so the
 * connection carries no more of it. Call on the response's event loop, before its body arrives
 * (directly in the callback that got the response).
 */
public final class BoundedBody {
  /** The most a declared length pre-sizes the buffer; it grows as bytes arrive. */
  private static final int MAX_INITIAL_CAPACITY = 64 * 1024;

  /** An answer larger than the caller's limit. */
  public static final class TooLargeException extends RuntimeException {
    TooLargeException(String message) {
      super(message, null, false, false);
    }
  }

  private BoundedBody() {}

  /** The whole body of {@code response}, failing once it is over {@code maxBytes}. */
  public static Future<Buffer> read(HttpClientResponse response, int maxBytes) {
    long declared = declaredLength(response);
    if (declared == 0) {
      // nothing follows the headers: the response may have ended already, and a handler set on an
      // ended response throws
      return Future.succeededFuture(Buffer.buffer());
    }
    if (declared > maxBytes) {
      response.request().reset();
      return Future.failedFuture(
          new TooLargeException(
              "an answer of " + declared + " bytes, more than the " + maxBytes + " expected"));
    }
    Promise<Buffer> promise = Promise.promise();
    Buffer body = Buffer.buffer((int) Math.clamp(declared, 0, MAX_INITIAL_CAPACITY));
    response.handler(chunk -> {
      if (promise.future().isComplete()) {
        return; // cut off already: the rest is dropped
      }
      if (chunk.length() > maxBytes - body.length()) {
        promise.tryFail( // first: the reset fails the response too, with a vaguer reason
            new TooLargeException("an answer of more than the " + maxBytes + " bytes expected"));
        response.request().reset();
      } else {
        body.appendBuffer(chunk);
      }
    });
    response.exceptionHandler(promise::tryFail);
    response.endHandler(v -> promise.tryComplete(body));
    return promise.future();
  }

  private static long declaredLength(HttpClientResponse response) {
    String value = response.getHeader(HttpHeaders.CONTENT_LENGTH);
    try {
      return value == null ? -1 : Long.parseLong(value.strip());
    } catch (NumberFormatException e) {
      return -1; // read as it comes, bounded all the same
    }
  }
}
