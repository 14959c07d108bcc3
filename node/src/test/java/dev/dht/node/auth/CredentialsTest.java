package dev.dht.node.auth;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Reading credentials: the bearer token of an Authorization header, a certificate's CN. */
class CredentialsTest {
  @Test
  void theTokenFollowsTheBearerSchemeInAnyCaseAndItsSpaces() {
    assertThat(ClientAuthenticator.tokenStart("Bearer abc")).isEqualTo(7);
    assertThat(ClientAuthenticator.tokenStart("bearer   abc")).isEqualTo(9);
    assertThat(ClientAuthenticator.tokenStart("BEARER a")).isEqualTo(7);
    assertThat(ClientAuthenticator.tokenStart("Bearer")).isEqualTo(-1);
    assertThat(ClientAuthenticator.tokenStart("Bearer ")).isEqualTo(-1);
    assertThat(ClientAuthenticator.tokenStart("Bearerabc")).isEqualTo(-1);
    assertThat(ClientAuthenticator.tokenStart("Basic YWxhZGRpbjpvcGVuc2VzYW1l")).isEqualTo(-1);
    assertThat(ClientAuthenticator.tokenStart("")).isEqualTo(-1);
  }

  @Test
  void aCertificateNamesItsUserByItsOneCommonName() {
    assertThat(CertificateNames.commonName("CN=dht-user.app,O=dht")).isEqualTo("dht-user.app");
    assertThat(CertificateNames.commonName("O=dht,CN=dht-user.app")).isEqualTo("dht-user.app");
    assertThat(CertificateNames.commonName("CN=a\\,b")).isEqualTo("a,b");
    assertThat(CertificateNames.commonName("O=dht")).as("none").isEmpty();
    assertThat(CertificateNames.commonName("CN=a,CN=b")).as("two: ambiguous").isEmpty();
    assertThat(CertificateNames.commonName("not a name")).isEmpty();
  }
}
