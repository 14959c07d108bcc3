package dev.dht.operator.users;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The users file the nodes read: its shape, the token's hash, and when its revision moves. */
class UsersDocumentTest {
  static DhtUser user(String name, DhtUserSpec.Quota quota, Acl... acls) {
    var user = new DhtUser();
    user.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace("ns").build());
    user.setSpec(DhtUserSpec.builder().cluster("demo").acls(List.of(acls)).quota(quota).build());
    return user;
  }

  static UsersDocument document(UsersDocument.Entry... entries) {
    return new UsersDocument(0, Authentication.Required, List.of(entries));
  }

  @Test
  void theNodesGetTheTokensHashTheAclsAndTheQuotaSortedByName() throws Exception {
    var app =
        UsersDocument.Entry.of(
            user(
                "app",
                DhtUserSpec.Quota.builder().requestsPerSecond(200).build(),
                Acl.of("app/", Operation.Range, Operation.Read, Operation.Read)),
            "abc");
    var admin = UsersDocument.Entry.of(user("admin", null, Acl.of("", Operation.Delete)), "xyz");
    var json = new ObjectMapper().readTree(document(app, admin).after(null, -1).toJson());

    assertThat(json.get("revision").asLong()).isEqualTo(1);
    assertThat(json.get("authentication").asText()).isEqualTo("required");
    assertThat(json.get("users").findValuesAsText("name")).containsExactly("admin", "app");
    var first = json.get("users").get(1);
    // sha256("abc"), the standard test vector
    assertThat(first.get("tokenSha256").asText())
        .isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    assertThat(first.get("acls").get(0).get("prefix").asText()).isEqualTo("app/");
    assertThat(first.get("acls").get(0).get("operations").toString())
        .isEqualTo("[\"read\",\"range\"]");
    assertThat(first.get("requestsPerSecond").asInt()).isEqualTo(200);
    assertThat(json.get("users").get(0).has("requestsPerSecond")).isFalse();
    assertThat(json.toString()).doesNotContain("\"abc\"", "xyz");
  }

  @Test
  void theRevisionStaysWithTheContentAndMovesPastWhatTheNodesHold() {
    var app = UsersDocument.Entry.of(user("app", null, Acl.of("", Operation.Read)), "t1");
    var first = document(app).after(null, -1);
    assertThat(first.revision()).isEqualTo(1);

    String written = first.toJson();
    assertThat(document(app).after(written, 1).revision()).as("same content").isEqualTo(1);
    assertThat(document(app).after(written, -1).revision()).as("nodes not asked").isEqualTo(1);

    var rotated = UsersDocument.Entry.of(user("app", null, Acl.of("", Operation.Read)), "t2");
    assertThat(document(rotated).after(written, 1).revision()).as("a new token").isEqualTo(2);
    assertThat(document().after(written, 1).revision()).as("a revoked user").isEqualTo(2);

    assertThat(document(app).after(written, 7).revision())
        .as("a node holds a later document (the file was lost and made again)")
        .isEqualTo(8);
    assertThat(document(app).after("not json", -1).revision()).isEqualTo(1);
    assertThat(document(app).after(null, 4).revision()).isEqualTo(5);
    var none = new UsersDocument(0, Authentication.None, List.of(app));
    assertThat(none.after(written, 1).revision()).as("the mode changed").isEqualTo(2);
  }
}
