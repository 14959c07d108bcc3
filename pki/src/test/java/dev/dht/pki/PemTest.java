package dev.dht.pki;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.util.List;
import org.junit.jupiter.api.Test;

class PemTest {
  /** Made with {@code openssl ecparam -name prime256v1 -genkey -noout}: OpenSSL's own EC form. */
  private static final String OPENSSL_EC_KEY =
      """
      -----BEGIN EC PRIVATE KEY-----
      MHcCAQEEILKl/1YiDePuLiDQ9dD7gLtKbbTQBjzzMx7oVGbvyAyOoAoGCCqGSM49
      AwEHoUQDQgAEGGCcddRt4tC9rXqpFWz28REO7UFqxNjtjq6aI4rOmxRQKmUh3V1r
      Yw1pmyYu/5K/fu35kmLwkDpXMQ4e9BEoQQ==
      -----END EC PRIVATE KEY-----
      """;

  private final CertificateAuthority ca = TestPki.ca("demo CA");

  @Test
  void aBundleKeepsItsCertificatesInOrder() {
    var other = TestPki.ca("other CA");
    String bundle = Pem.certificates(List.of(ca.certificate(), other.certificate()));
    assertThat(bundle)
        .startsWith("-----BEGIN CERTIFICATE-----\n")
        .endsWith("-----END CERTIFICATE-----\n");
    assertThat(bundle.split("-----BEGIN CERTIFICATE-----", -1)).hasSize(3);
    assertThat(Pem.parseCertificates(bundle))
        .containsExactly(ca.certificate(), other.certificate());
    assertThat(Pem.parseCertificate(Pem.certificate(ca.certificate()))).isEqualTo(ca.certificate());
    assertThatThrownBy(() -> Pem.parseCertificate(bundle)).hasMessageContaining("found 2");
  }

  @Test
  void textAroundTheBlocksIsIgnored() {
    String text = "# the CA\n" + Pem.certificate(ca.certificate()) + "\n# end\n";
    assertThat(Pem.parseCertificates(text)).containsExactly(ca.certificate());
    assertThat(Pem.parseCertificates("")).isEmpty();
  }

  @Test
  void keysAreWrittenAsPkcs8AndReadBack() throws Exception {
    var leaf = TestPki.leaf(ca);
    String pem = Pem.privateKey(leaf.privateKey());
    assertThat(pem)
        .startsWith("-----BEGIN PRIVATE KEY-----\n")
        .endsWith("-----END PRIVATE KEY-----\n");
    var key = Pem.parsePrivateKey(pem);
    assertThat(key.getEncoded()).isEqualTo(leaf.privateKey().getEncoded());
    assertThat(signsFor(key, leaf.certificate().getPublicKey())).isTrue();
  }

  @Test
  void opensslsEcKeyFormIsReadToo() {
    var key = Pem.parsePrivateKey(OPENSSL_EC_KEY);
    assertThat(key.getAlgorithm()).isEqualTo("EC");
    assertThat(key.getFormat()).isEqualTo("PKCS#8");
    assertThat(Pem.parsePrivateKey(Pem.privateKey(key)).getEncoded()).isEqualTo(key.getEncoded());
  }

  @Test
  void aTextWithoutKeyOrCertificateIsAnError() {
    String certificate = Pem.certificate(ca.certificate());
    assertThatThrownBy(() -> Pem.parsePrivateKey(certificate)).isInstanceOf(PkiException.class);
    assertThatThrownBy(() -> Pem.parseCertificates(OPENSSL_EC_KEY))
        .isInstanceOf(PkiException.class)
        .hasMessageContaining("not a certificate");
  }

  private static boolean signsFor(PrivateKey key, PublicKey publicKey) throws Exception {
    byte[] data = "dht".getBytes(StandardCharsets.UTF_8);
    var signer = Signature.getInstance("SHA256withECDSA");
    signer.initSign(key);
    signer.update(data);
    byte[] signature = signer.sign();
    var verifier = Signature.getInstance("SHA256withECDSA");
    verifier.initVerify(publicKey);
    verifier.update(data);
    return verifier.verify(signature);
  }
}
