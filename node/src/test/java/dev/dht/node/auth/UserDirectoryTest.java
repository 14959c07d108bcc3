package dev.dht.node.auth;

import static dev.dht.node.auth.UsersDocumentExamples.acl;
import static dev.dht.node.auth.UsersDocumentExamples.required;
import static dev.dht.node.auth.UsersDocumentExamples.user;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.contract.UsersDocument;
import dev.dht.contract.UsersDocument.Authentication;
import dev.dht.contract.UsersDocument.Operation;
import dev.dht.contract.UsersDocument.User;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** A users document made ready for the request path: lookups, grants, quotas. */
class UserDirectoryTest {
  private final AtomicLong now = new AtomicLong();

  @Test
  void usersAreFoundByTheHashOfTheirTokenAndByTheirCertificatesName() throws Exception {
    List<User> users = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      users.add(
          new User(
              "user-" + i,
              i % 3 == 2 ? null : UsersDocument.sha256Hex("token-" + i),
              i % 3 == 0 ? null : "dht-user.user-" + i,
              List.of(),
              0));
    }
    UserDirectory directory =
        UserDirectory.of(new UsersDocument(3, Authentication.REQUIRED, users), null, now::get);
    for (int i = 0; i < 1000; i++) {
      ClientUser byToken = directory.byTokenHash(sha256("token-" + i));
      ClientUser byName = directory.byCommonName("dht-user.user-" + i);
      assertThat(byToken == null ? null : byToken.name())
          .isEqualTo(i % 3 == 2 ? null : "user-" + i);
      assertThat(byName == null ? null : byName.name()).isEqualTo(i % 3 == 0 ? null : "user-" + i);
    }
    assertThat(directory.byTokenHash(sha256("token-1000"))).isNull();
    assertThat(directory.byTokenHash(new byte[32])).isNull();
    assertThat(directory.byCommonName("dht node")).isNull();
    assertThat(directory.required()).isTrue();
    assertThat(directory.revision()).isEqualTo(3);
    assertThat(directory.takesCertificates()).isTrue();
  }

  @Test
  void aUserMayWhatItsAclsGrantForEachOperation() {
    UserDirectory directory =
        UserDirectory.of(
            required(
                1,
                user(
                    "app",
                    "t",
                    0,
                    acl("app/", Operation.READ, Operation.WRITE),
                    acl("shared/", Operation.READ),
                    acl("", Operation.RANGE))),
            null,
            now::get);
    ClientUser app = directory.byTokenHash(sha256("t"));
    assertThat(app.may(Operation.READ, bytes("shared/x"))).isTrue();
    assertThat(app.may(Operation.WRITE, bytes("shared/x"))).isFalse();
    assertThat(app.may(Operation.WRITE, bytes("app/x"))).isTrue();
    assertThat(app.may(Operation.DELETE, bytes("app/x"))).as("not granted anywhere").isFalse();
    assertThat(app.mayRange(bytes("a"), null)).isTrue();
    assertThat(app.prefixes(Operation.READ)).hasToString("[app/, shared/]");
    assertThat(app.prefixes(Operation.DELETE)).hasToString("[]");
    assertThat(app.takeQuota()).as("no quota").isZero();
  }

  @Test
  void anyoneMayDoAnythingWithoutAQuota() {
    for (Operation operation : Operation.values()) {
      assertThat(ClientUser.ANYONE.may(operation, bytes("x"))).isTrue();
    }
    assertThat(ClientUser.ANYONE.mayRange(bytes("x"), null)).isTrue();
    assertThat(ClientUser.ANYONE.takeQuota()).isZero();
  }

  @Test
  void aNewRevisionKeepsAUsersBucketUnlessItsRateChanged() {
    UserDirectory first =
        UserDirectory.of(required(1, user("a", "ta", 1), user("b", "tb", 1)), null, now::get);
    assertThat(first.byTokenHash(sha256("ta")).takeQuota()).isZero();
    assertThat(first.byTokenHash(sha256("tb")).takeQuota()).isZero();
    UserDirectory second =
        UserDirectory.of(required(2, user("a", "ta", 1), user("b", "tb", 2)), first, now::get);
    assertThat(second.byTokenHash(sha256("ta")).takeQuota())
        .as("the same rate: the bucket emptied under the first revision")
        .isPositive();
    assertThat(second.byTokenHash(sha256("tb")).takeQuota())
        .as("a new rate: a new bucket")
        .isZero();
  }

  @Test
  void withoutADocumentOrWithAuthenticationNoneNobodyIsAsked() {
    assertThat(UserDirectory.OPEN.required()).isFalse();
    assertThat(UserDirectory.OPEN.revision()).isEqualTo(-1);
    assertThat(UserDirectory.OPEN.authentication()).isEqualTo("none");
    UserDirectory none =
        UserDirectory.of(
            new UsersDocument(4, Authentication.NONE, List.of(user("a", "t", 0))), null, now::get);
    assertThat(none.required()).isFalse();
    assertThat(none.authentication()).isEqualTo("none");
    assertThat(none.revision()).isEqualTo(4);
  }

  static byte[] sha256(String token) {
    try {
      byte[] hash = MessageDigest.getInstance("SHA-256").digest(token.getBytes(UTF_8));
      assertThat(HexFormat.of().formatHex(hash)).isEqualTo(UsersDocument.sha256Hex(token));
      return hash;
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static byte[] bytes(String text) {
    return text.getBytes(UTF_8);
  }
}
