package dev.dht.node.http;

/** A request body that did not arrive in full before the body deadline; answered with 408. */
final class BodyTimeoutException extends RuntimeException implements Failures.ClientFacing {
  BodyTimeoutException(long timeoutMs) {
    super("the request body did not arrive within " + timeoutMs + " ms", null, false, false);
  }
}
