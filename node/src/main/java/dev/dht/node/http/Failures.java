package dev.dht.node.http;

import dev.dht.node.cluster.HybridClock;
import dev.dht.node.replication.QuorumFailedException;
import dev.dht.node.storage.StorageException;
import io.vertx.core.http.HttpServerRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Maps a failed request to its answer, in one place. Only the node's own faults are 500s. */
final class Failures {
  private static final Logger log = LoggerFactory.getLogger(Failures.class);

  private Failures() {}

  /** Answers the request for {@code cause}, unless it was answered (or its client left) already. */
  static void answer(HttpServerRequest request, Throwable cause) {
    if (cause instanceof StorageException) {
      log.error("storage failure", cause);
    } else if (!(cause instanceof ClientFacing
        || cause instanceof QuorumFailedException
        || cause instanceof HybridClock.NotReservedException
        || cause instanceof HybridClock.FencedException)) {
      log.error("request failed", cause);
    }
    if (request.response().ended() || request.response().closed()) {
      return; // e.g. a body timeout, answered with 408 when it happened
    }
    switch (cause) {
      case OverloadedException e -> Responses.overloaded(request, e.getMessage());
      case BrokenBodyException e -> Responses.text(request, 400, e.getMessage());
      case BodyTooLargeException e -> Responses.text(request, 413, e.getMessage());
      case QuorumFailedException e -> Responses.text(request, 504, e.getMessage());
      case HybridClock.NotReservedException e -> Responses.overloaded(request, e.getMessage());
      case HybridClock.FencedException e -> Responses.text(request, 503, e.getMessage());
      case StorageException e -> Responses.text(request, 500, "storage error: " + e.getMessage());
      default -> Responses.text(request, 500, "internal error: " + cause);
    }
  }

  /** Failures that are part of the protocol, not faults of this node: not logged as errors. */
  interface ClientFacing {}
}
