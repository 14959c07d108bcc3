package dev.dht.node.http;

import dev.dht.node.replication.QuorumFailedException;
import dev.dht.node.storage.StorageException;
import io.vertx.core.http.HttpServerRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Maps a failed request to its status code, in one place. */
final class Failures {
  private static final Logger log = LoggerFactory.getLogger(Failures.class);

  private Failures() {}

  /** Answers the request for {@code cause} (if still possible) and returns the status. */
  static int answer(HttpServerRequest request, Throwable cause) {
    int status;
    String reason;
    if (cause instanceof BodyTooLargeException) {
      status = 413;
      reason = cause.getMessage();
    } else if (cause instanceof QuorumFailedException) {
      status = 504;
      reason = cause.getMessage();
    } else if (cause instanceof StorageException) {
      status = 500;
      reason = "storage error: " + cause.getMessage();
      log.error("storage failure", cause);
    } else {
      status = 500;
      reason = "internal error: " + cause;
      log.error("request failed", cause);
    }
    if (!request.response().ended() && !request.response().closed()) {
      Responses.text(request, status, reason);
    }
    return status;
  }
}
