package dev.dht.node.http;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;

/** Small, uniform answers: a status with a plain-text reason, or a body. */
final class Responses {
  private static final CharSequence TEXT = HttpHeaders.createOptimized("text/plain; charset=utf-8");
  private static final CharSequence OCTETS =
      HttpHeaders.createOptimized("application/octet-stream");

  private Responses() {}

  /**
   * A status with a reason as the body. If the request still has body bytes on the way, the
   * connection is closed after the answer rather than parsing them as the next request.
   */
  static void text(HttpServerRequest request, int status, String reason) {
    HttpServerResponse response = request.response().setStatusCode(status);
    response.putHeader(HttpHeaders.CONTENT_TYPE, TEXT);
    if (hasUnreadBody(request)) {
      response.putHeader(HttpHeaders.CONNECTION, HttpHeaders.CLOSE);
    }
    response.end(reason + "\n");
  }

  /** A status with a reason, then the connection is closed (its client broke the protocol). */
  static void textThenClose(HttpServerRequest request, int status, String reason) {
    request
        .response()
        .setStatusCode(status)
        .putHeader(HttpHeaders.CONTENT_TYPE, TEXT)
        .putHeader(HttpHeaders.CONNECTION, HttpHeaders.CLOSE)
        .end(reason + "\n")
        .onComplete(done -> request.connection().close());
  }

  private static boolean hasUnreadBody(HttpServerRequest request) {
    return !request.isEnded() && RequestBody.hasBody(request);
  }

  static void empty(HttpServerRequest request, int status) {
    request.response().setStatusCode(status).end();
  }

  static void bytes(HttpServerRequest request, Buffer body) {
    request.response().setStatusCode(200).putHeader(HttpHeaders.CONTENT_TYPE, OCTETS).end(body);
  }

  static void overloaded(HttpServerRequest request) {
    overloaded(request, "too many requests in flight");
  }

  static void overloaded(HttpServerRequest request, String why) {
    request.response().putHeader(HttpHeaders.RETRY_AFTER, "1");
    text(request, 503, "overloaded: " + why + ", retry later");
  }
}
