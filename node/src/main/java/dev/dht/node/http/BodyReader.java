package dev.dht.node.http;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;

/** Reads a request body into memory, refusing it as soon as it would pass the limit. */
final class BodyReader {
  private BodyReader() {}

  static Future<Buffer> read(HttpServerRequest request, int maxBytes) {
    long declared = declaredLength(request);
    if (declared > maxBytes) {
      return Future.failedFuture(new BodyTooLargeException(maxBytes));
    }
    Buffer body = Buffer.buffer(declared > 0 ? (int) declared : 64);
    Promise<Buffer> promise = Promise.promise();
    request.handler(chunk -> {
      if (body.length() + chunk.length() > maxBytes) {
        promise.tryFail(new BodyTooLargeException(maxBytes));
      } else if (!promise.future().isComplete()) {
        body.appendBuffer(chunk);
      }
    });
    request.endHandler(v -> promise.tryComplete(body));
    request.exceptionHandler(promise::tryFail);
    return promise.future();
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
}
