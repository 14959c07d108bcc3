package dev.dht.node.http;

import dev.dht.contract.UsersDocument;
import dev.dht.node.auth.UserDirectory;
import dev.dht.node.auth.UsersInForce;
import dev.dht.node.auth.UsersReloader;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;

/**
 * {@code PUT /v0/admin/users}: the operator pushes a users document, which takes effect at once if
 * its revision is higher than the one in force (a revocation then needs no wait for the kubelet to
 * update the users file). {@code 200} with {@code {"revision": N, "applied": true|false}}, N the
 * revision in force after the push; {@code 400} with the reason if the document is not valid (the
 * one in force stays); {@code 409} on a node started without a users file, which authenticates no
 * client. The body is bounded ({@link UsersDocument#MAX_BYTES}, else {@code 413}) and its bytes
 * come from the peers' budget: an admin push is the operator's traffic, not the clients'.
 */
final class UsersPush {
  static final String PATH = "users";

  private final UsersInForce users;
  private final UsersReloader reloader;
  private final Admission budget;

  UsersPush(UsersInForce users, UsersReloader reloader, Admission budget) {
    this.users = users;
    this.reloader = reloader;
    this.budget = budget;
  }

  void handle(HttpServerRequest request, RequestBody body) {
    if (reloader == null) {
      Responses.text(
          request,
          409,
          "this node was started without --users-file: it authenticates no client and takes no"
              + " users document");
      return;
    }
    body.read(UsersDocument.MAX_BYTES, budget)
        .compose(bytes -> {
          String json = bytes.toString(StandardCharsets.UTF_8);
          budget.releaseBytes(bytes.length());
          return reloader.push(json);
        })
        .onSuccess(offer ->
            request
                .response()
                .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                .end(
                    new JsonObject()
                        .put("revision", offer.revision())
                        .put("applied", offer.applied())
                        .encode()))
        .onFailure(e -> {
          if (e instanceof IllegalArgumentException) {
            Responses.text(request, 400, "not a valid users document: " + e.getMessage());
          } else {
            Failures.answer(request, e);
          }
        });
  }

  /** The revision of the users document in force; null on a node that reads none. */
  Long revision() {
    return users.takesDocuments() ? users.current().revision() : null;
  }

  /** Whether the document in force requires authentication: {@code required} or {@code none}. */
  String authentication() {
    UserDirectory inForce = users.current();
    return inForce.authentication();
  }
}
