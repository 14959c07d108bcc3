package dev.dht.node.auth;

import dev.dht.contract.UsersDocument;
import dev.dht.contract.UsersDocument.Acl;
import dev.dht.contract.UsersDocument.Authentication;
import dev.dht.contract.UsersDocument.Operation;
import dev.dht.contract.UsersDocument.User;
import java.util.List;
import java.util.Set;

/** Users documents for tests. */
public final class UsersDocumentExamples {
  /** The token of {@link #ONE_USER}'s user {@code app}. */
  public static final String APP_TOKEN = "app-token-0123456789";

  /** One user, {@code app}: every operation on {@code app/}, by token or certificate. */
  public static final UsersDocument ONE_USER =
      new UsersDocument(
          1,
          Authentication.REQUIRED,
          List.of(
              new User(
                  "app",
                  UsersDocument.sha256Hex(APP_TOKEN),
                  "dht-user.app",
                  List.of(new Acl("app/", Set.of(Operation.values()))),
                  0)));

  private UsersDocumentExamples() {}

  /** A user with a token and {@code acls}, and a quota ({@code 0}: none). */
  public static User user(String name, String token, long perSecond, Acl... acls) {
    return new User(name, UsersDocument.sha256Hex(token), null, List.of(acls), perSecond);
  }

  /** An ACL of {@code prefix} for {@code operations}. */
  public static Acl acl(String prefix, Operation... operations) {
    return new Acl(prefix, Set.of(operations));
  }

  /** A document requiring authentication, of {@code users}. */
  public static UsersDocument required(long revision, User... users) {
    return new UsersDocument(revision, Authentication.REQUIRED, List.of(users));
  }
}
