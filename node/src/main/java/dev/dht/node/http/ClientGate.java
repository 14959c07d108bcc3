package dev.dht.node.http;

import dev.dht.contract.UsersDocument.Operation;
import dev.dht.node.auth.ClientAuthenticator;
import dev.dht.node.auth.ClientUser;
import dev.dht.node.auth.Refusal;
import dev.dht.node.auth.TokenBucket;
import dev.dht.node.auth.UserDirectory;
import dev.dht.node.metrics.NodeMetrics;
import io.micrometer.core.instrument.Counter;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;

/**
 * The client port's door, on one event loop: who a request comes from ({@code 401} if nobody the
 * users document knows), whether its user is within its quota ({@code 429}), and whether the user's
 * ACLs grant what it asks ({@code 403}). All of it before a body is read or a replica touched; a
 * refused request's body is discarded as it arrives and its connection closed after the answer
 * ({@link Responses#text}). The quota is taken before the ACLs are checked: a refused request costs
 * the node work too, and a client that keeps sending them is slowed like any other. Answers never
 * repeat a token or a key (keys may be any bytes).
 */
final class ClientGate {
  private static final CharSequence WWW_AUTHENTICATE =
      HttpHeaders.createOptimized("WWW-Authenticate");
  private static final CharSequence CHALLENGE = HttpHeaders.createOptimized("Bearer realm=\"dht\"");

  private final ClientAuthenticator authenticator = new ClientAuthenticator();
  private final Counter[] refusals = new Counter[Refusal.values().length];

  ClientGate(NodeMetrics metrics) {
    for (Refusal refusal : Refusal.values()) {
      refusals[refusal.ordinal()] = metrics.clientRefusals(refusal.label());
    }
  }

  /**
   * The user a client request comes from ({@link ClientUser#ANYONE} if {@code users} requires no
   * authentication); null if the request was refused, and answered.
   */
  ClientUser admit(HttpServerRequest request, UserDirectory users) {
    if (!users.required()) {
      return ClientUser.ANYONE;
    }
    ClientUser user = authenticator.authenticate(request, users);
    if (user == null) {
      Refusal refusal = authenticator.refusal();
      count(refusal);
      request.response().putHeader(WWW_AUTHENTICATE, CHALLENGE);
      Responses.text(request, refusal.status(), refusal.reason());
      return null;
    }
    long waitNanos = user.takeQuota();
    if (waitNanos > 0) {
      count(Refusal.OVER_QUOTA);
      long seconds = TokenBucket.retryAfterSeconds(waitNanos);
      request.response().putHeader(HttpHeaders.RETRY_AFTER, Long.toString(seconds));
      Responses.text(
          request,
          429,
          "user "
              + user.name()
              + " is over its quota of "
              + user.requestsPerSecond()
              + " requests a second on this node: retry in "
              + seconds
              + " s");
      return null;
    }
    return user;
  }

  /**
   * Whether {@code user} may {@code operation} (read, write or delete) {@code key}; if not, the
   * request is answered {@code 403}.
   */
  boolean allows(HttpServerRequest request, ClientUser user, Operation operation, byte[] key) {
    if (user.may(operation, key)) {
      return true;
    }
    forbid(request, user, operation, "this key", "");
    return false;
  }

  /**
   * Whether {@code user} may read the range from {@code start} to {@code end} (null: the last key);
   * if not, the request is answered {@code 403}.
   */
  boolean allowsRange(HttpServerRequest request, ClientUser user, byte[] start, byte[] end) {
    if (user.mayRange(start, end)) {
      return true;
    }
    forbid(
        request,
        user,
        Operation.RANGE,
        "this range",
        " (a range starts and ends within one of them; one without an end needs the prefix \"\")");
    return false;
  }

  private void forbid(
      HttpServerRequest request, ClientUser user, Operation operation, String what, String hint) {
    count(Refusal.FORBIDDEN);
    String verb = operation == Operation.RANGE ? "read" : operation.label();
    Responses.text(
        request,
        403,
        "user "
            + user.name()
            + " may not "
            + verb
            + " "
            + what
            + ": "
            + operation.label()
            + " is allowed on prefixes "
            + user.prefixes(operation)
            + hint);
  }

  private void count(Refusal refusal) {
    refusals[refusal.ordinal()].increment();
  }
}
