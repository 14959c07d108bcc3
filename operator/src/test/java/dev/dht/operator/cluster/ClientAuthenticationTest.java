package dev.dht.operator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.operator.users.Authentication;
import dev.dht.operator.users.UsersStatus;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which clusters get a users file, and whether they demand credentials. */
class ClientAuthenticationTest {
  static DhtClusterStatus running() {
    return DhtClusterStatus.builder().members(List.of("http://demo-0.demo-peers:8080")).build();
  }

  @Test
  void aNewClusterGetsAUsersFileWithTheModeItsSpecAsks() {
    assertThat(ClientAuthentication.decide(Authentication.Required, null))
        .isEqualTo(new ClientAuthentication(true, Authentication.Required));
    assertThat(ClientAuthentication.decide(Authentication.Required, new DhtClusterStatus()))
        .isEqualTo(new ClientAuthentication(true, Authentication.Required));
    assertThat(ClientAuthentication.decide(null, null))
        .as("unset: required")
        .isEqualTo(new ClientAuthentication(true, Authentication.Required));
    assertThat(ClientAuthentication.decide(Authentication.None, null))
        .as("none still gets the file: a later required takes effect without a restart")
        .isEqualTo(new ClientAuthentication(true, Authentication.None));
  }

  @Test
  void aClusterMadeBeforeUsersKeepsRunningAsItDidUntilItsSpecSaysOtherwise() {
    assertThat(ClientAuthentication.decide(null, running())).isEqualTo(ClientAuthentication.LEGACY);
    assertThat(ClientAuthentication.decide(Authentication.Required, running()))
        .isEqualTo(new ClientAuthentication(true, Authentication.Required));
    var withUsers = running().toBuilder().users(new UsersStatus()).build();
    assertThat(ClientAuthentication.decide(null, withUsers))
        .as("once it has a users file, an unset mode is the default")
        .isEqualTo(new ClientAuthentication(true, Authentication.Required));
  }
}
