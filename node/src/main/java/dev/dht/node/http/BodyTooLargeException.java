package dev.dht.node.http;

/** A request body over the configured limit; answered with 413. */
final class BodyTooLargeException extends RuntimeException implements Failures.ClientFacing {
  BodyTooLargeException(long limit) {
    super("the body is larger than the limit of " + limit + " bytes", null, false, false);
  }
}
