package dev.dht.operator.users;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.dht.contract.UsersDocument;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The users file the nodes read: its shape, the token's hash, and when its revision moves. */
class UsersFileTest {
  static UsersFile.Holder holder(String name, String token, DhtUserSpec.Quota quota, Acl... acls) {
    var user = new DhtUser();
    user.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace("ns").build());
    user.setSpec(DhtUserSpec.builder().cluster("demo").acls(List.of(acls)).quota(quota).build());
    return new UsersFile.Holder(user, token, false);
  }

  static UsersDocument next(String previous, long held, UsersFile.Holder... holders) {
    return UsersFile.next(Authentication.Required, List.of(holders), previous, held);
  }

  @Test
  void theNodesGetTheTokensHashTheAclsAndTheQuotaSortedByName() throws Exception {
    var app =
        holder(
            "app",
            "abc",
            DhtUserSpec.Quota.builder().requestsPerSecond(200).build(),
            Acl.of("app/", Operation.Range, Operation.Read, Operation.Read));
    var admin = holder("admin", "xyz", null, Acl.of("", Operation.Delete));
    String written = next(null, -1, app, admin).toJson();
    var json = new ObjectMapper().readTree(written);

    assertThat(UsersDocument.parse(written).revision())
        .as("the nodes' parser reads it")
        .isEqualTo(1);
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
    assertThat(written).doesNotContain("\"abc\"", "xyz");
    assertThat(UsersFile.admits(written, "app", "abc")).isTrue();
    assertThat(UsersFile.admits(written, "app", "xyz")).isFalse();
  }

  @Test
  void theRevisionStaysWithTheContentAndMovesPastWhatTheNodesHold() {
    var app = holder("app", "t1", null, Acl.of("", Operation.Read));
    String written = next(null, -1, app).toJson();
    assertThat(UsersFile.revisionOf(written)).isEqualTo(1);

    assertThat(next(written, 1, app).revision()).as("same content").isEqualTo(1);
    assertThat(next(written, -1, app).revision()).as("nodes not asked").isEqualTo(1);
    var rotated = holder("app", "t2", null, Acl.of("", Operation.Read));
    assertThat(next(written, 1, rotated).revision()).as("a new token").isEqualTo(2);
    assertThat(next(written, 1).revision()).as("a revoked user").isEqualTo(2);
    assertThat(next(written, 7, app).revision())
        .as("a node holds a later document (the file was lost and made again)")
        .isEqualTo(8);
    assertThat(next("not json", -1, app).revision()).isEqualTo(1);
    assertThat(next(null, 4, app).revision()).isEqualTo(5);
    assertThat(UsersFile.next(Authentication.None, List.of(app), written, 1).revision())
        .as("the mode changed")
        .isEqualTo(2);
  }
}
