package dev.dht.node.http;

/** The node cannot take this request now; answered with 503 and Retry-After. */
final class OverloadedException extends RuntimeException implements Failures.ClientFacing {
  OverloadedException(String reason) {
    super(reason, null, false, false);
  }
}
