package dev.dht.node.http;

/** A request body that could not be decoded or was cut off by its sender; answered with 400. */
final class BrokenBodyException extends RuntimeException implements Failures.ClientFacing {
  BrokenBodyException(Throwable cause) {
    super(
        "the request body is malformed or was cut off: " + cause.getMessage(), null, false, false);
  }
}
