package dev.dht.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dht.contract.UsersDocument.Acl;
import dev.dht.contract.UsersDocument.Authentication;
import dev.dht.contract.UsersDocument.Operation;
import dev.dht.contract.UsersDocument.User;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The users document as the operator writes it and the nodes read it. */
class UsersDocumentTest {
  private static final String TOKEN_HASH = UsersDocument.sha256Hex("s3cret-token");

  @Test
  void readsTheDocumentOfTheContract() {
    String json =
        """
        {"revision": 7,
         "authentication": "required",
         "users": [
           {"name": "app",
            "tokenSha256": "%s",
            "certificateCommonName": "dht-user.app",
            "acls": [{"prefix": "app/", "operations": ["read", "write", "delete", "range"]}],
            "requestsPerSecond": 200},
           {"name": "reader", "tokenSha256": "%s", "acls": [{"prefix": "", "operations": ["read"]}]},
           {"name": "nobody", "certificateCommonName": "dht-user.nobody", "acls": []}]}
        """
            .formatted(TOKEN_HASH, UsersDocument.sha256Hex("other"));
    assertThat(UsersDocument.parse(json))
        .isEqualTo(
            new UsersDocument(
                7,
                Authentication.REQUIRED,
                List.of(
                    new User(
                        "app",
                        TOKEN_HASH,
                        "dht-user.app",
                        List.of(new Acl("app/", Set.of(Operation.values()))),
                        200),
                    new User(
                        "reader",
                        UsersDocument.sha256Hex("other"),
                        null,
                        List.of(new Acl("", Set.of(Operation.READ))),
                        0),
                    new User("nobody", null, "dht-user.nobody", List.of(), 0))));
  }

  @Test
  void theHashIsTheSha256OfTheTokensUtf8Bytes() {
    // printf 'abc' | sha256sum
    assertThat(UsersDocument.sha256Hex("abc"))
        .isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  }

  @Test
  void aUsersCertificateNameIsNeverANodes() {
    assertThat(UsersDocument.isUserCommonName("dht-user.app")).isTrue();
    assertThat(UsersDocument.isUserCommonName("dht-user.team.app-1")).isTrue();
    assertThat(UsersDocument.isUserCommonName("dht-user.")).isFalse();
    assertThat(UsersDocument.isUserCommonName("dht-user.x dht node"))
        .as("the node certificate of a cluster named dht-user in namespace x")
        .isFalse();
    assertThat(UsersDocument.isUserCommonName("demo.shop dht node")).isFalse();
  }

  @Test
  void fieldsItDoesNotKnowAreIgnored() {
    var read =
        UsersDocument.parse(
            """
            {"revision": 1, "authentication": "none", "comingSoon": {"a": 1},
             "users": [{"name": "u", "tokenSha256": "%s", "team": "web",
                        "acls": [{"prefix": "p", "operations": ["read"], "note": "x"}]}]}
            """
                .formatted(TOKEN_HASH));
    assertThat(read.authentication()).isEqualTo(Authentication.NONE);
    assertThat(read.users()).extracting(User::name).containsExactly("u");
  }

  @ParameterizedTest(name = "{1}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          not json                                                  | not JSON
          []                                                        | not a JSON object
          {"authentication": "required"}                            | revision: missing
          {"revision": -1, "authentication": "none"}                | revision must be 0 or more
          {"revision": "7", "authentication": "none"}               | revision: not a whole number
          {"revision": 7.5, "authentication": "none"}               | revision: not a whole number
          {"revision": 1}                                           | authentication: missing
          {"revision": 1, "authentication": "optional"}             | authentication: must be
          {"revision": 1, "authentication": "none", "users": {}}    | users: not an array
          {"revision": 1, "revision": 2, "authentication": "none"}  | Duplicate field
          {"revision": 1, "authentication": "none"} {}              | not JSON
          {"revision": 1, "authentication": "none", "users": [1]}   | users[0]: not a JSON object
          {"revision": 1, "authentication": "none", "users": [{"tokenSha256": "HASH"}]} | users[0].name: missing
          {"revision": 1, "authentication": "none", "users": [{"name": ""}]}            | name: missing or empty
          {"revision": 1, "authentication": "none", "users": [{"name": "u"}]}           | user u has no credentials
          {"revision": 1, "authentication": "none", "users": [{"name": "u", "tokenSha256": "ABC"}]}   | 64 lowercase hex
          {"revision": 1, "authentication": "none", "users": [{"name": "u", "tokenSha256": 5}]}       | users[0].tokenSha256: not a string
          {"revision": 1, "authentication": "none", "users": [{"name": "u", "certificateCommonName": ""}]} | certificateCommonName: missing or empty
          {"revision": 1, "authentication": "none", "users": [{"name": "u", "certificateCommonName": "dht node"}]} | certificateCommonName must be dht-user.<name without spaces>
          {"revision": 1, "authentication": "none", "users": [{"name": "u", "tokenSha256": "HASH", "requestsPerSecond": -1}]} | requestsPerSecond must be 0
          {"revision": 1, "authentication": "none", "users": [{"name": "u", "tokenSha256": "HASH", "acls": {}}]} | users[0].acls: not an array
          {"revision": 1, "authentication": "none", "users": [{"name": "u", "tokenSha256": "HASH", "acls": [{"operations": ["read"]}]}]} | users[0].acls[0].prefix: missing
          {"revision": 1, "authentication": "none", "users": [{"name": "u", "tokenSha256": "HASH", "acls": [{"prefix": 3}]}]} | users[0].acls[0].prefix: not a string
          {"revision": 1, "authentication": "none", "users": [{"name": "u", "tokenSha256": "HASH", "acls": [{"prefix": "", "operations": ["raed"]}]}]} | users[0].acls[0].operations[0]: not one of
          {"revision": 1, "authentication": "none", "users": [{"name": "u", "tokenSha256": "HASH"}, {"name": "u", "certificateCommonName": "dht-user.c"}]} | two users are named u
          {"revision": 1, "authentication": "none", "users": [{"name": "u", "tokenSha256": "HASH"}, {"name": "v", "tokenSha256": "HASH"}]} | user v has the tokenSha256 of another user
          {"revision": 1, "authentication": "none", "users": [{"name": "u", "certificateCommonName": "dht-user.c"}, {"name": "v", "certificateCommonName": "dht-user.c"}]} | user v has the certificateCommonName of another user
          """)
  void aMalformedDocumentIsRefusedWholeWithItsReason(String json, String reason) {
    assertThatThrownBy(() -> UsersDocument.parse(json.replace("HASH", TOKEN_HASH)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(reason);
  }

  @Property
  void whatIsWrittenIsReadBack(@ForAll("documents") UsersDocument document) {
    assertThat(UsersDocument.parse(document.toJson())).isEqualTo(document);
  }

  @Provide
  Arbitrary<UsersDocument> documents() {
    Arbitrary<Acl> acls =
        Combinators.combine(
                Arbitraries.strings().ofMaxLength(8), // any UTF-16 text, controls and all
                Arbitraries.of(Operation.class).set())
            .as(Acl::new);
    Arbitrary<List<User>> users =
        Combinators.combine(
                Arbitraries.integers().between(0, 3),
                acls.list().ofMaxSize(3),
                Arbitraries.longs().between(0, 1000))
            .as((credentials, userAcls, rate) -> new Object[] {credentials, userAcls, rate})
            .list()
            .ofMaxSize(5)
            .map(UsersDocumentTest::users);
    return Combinators.combine(
            Arbitraries.longs().between(0, Long.MAX_VALUE),
            Arbitraries.of(Authentication.class),
            users)
        .as(UsersDocument::new);
  }

  /** Users with unique names and credentials: bit 0 a token, bit 1 a certificate (none: both). */
  @SuppressWarnings("unchecked")
  private static List<User> users(List<Object[]> specs) {
    List<User> users = new ArrayList<>();
    for (int i = 0; i < specs.size(); i++) {
      int credentials = (int) specs.get(i)[0];
      boolean token = credentials != 2;
      boolean certificate = credentials != 1;
      users.add(
          new User(
              "user-" + i,
              token ? UsersDocument.sha256Hex("token-" + i) : null,
              certificate ? "dht-user.user-" + i : null,
              (List<Acl>) specs.get(i)[1],
              (long) specs.get(i)[2]));
    }
    return users;
  }

  @Property(tries = 50)
  void theRevisionIsAnyLongFromZero(
      @ForAll @LongRange(min = 0, max = Long.MAX_VALUE) long revision) {
    assertThat(
            UsersDocument.parse(
                    "{\"revision\": " + revision + ", \"authentication\": \"required\"}")
                .revision())
        .isEqualTo(revision);
  }
}
