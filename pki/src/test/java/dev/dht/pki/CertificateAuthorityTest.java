package dev.dht.pki;

import static dev.dht.pki.TestPki.NODE_NAMES;
import static dev.dht.pki.TestPki.NOW;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.security.cert.CertPathValidator;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateFactory;
import java.security.cert.PKIXParameters;
import java.security.cert.TrustAnchor;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CertificateAuthorityTest {
  private static final String SERVER_AUTH = "1.3.6.1.5.5.7.3.1";
  private static final String CLIENT_AUTH = "1.3.6.1.5.5.7.3.2";

  private final CertificateAuthority ca = TestPki.ca("demo CA 1");

  @Test
  void theCaIsASelfSignedP256CaThatSignsLeavesOnly() throws Exception {
    var certificate = ca.certificate();
    certificate.verify(certificate.getPublicKey());
    assertThat(certificate.getPublicKey().getAlgorithm()).isEqualTo("EC");
    assertThat(certificate.getPublicKey().toString()).contains("secp256r1");
    assertThat(certificate.getBasicConstraints()).as("CA, path length 0").isZero();
    assertThat(certificate.getKeyUsage()[5]).as("keyCertSign").isTrue();
    assertThat(certificate.getSigAlgName()).isEqualTo("SHA256withECDSA");
    var info = CertificateInfo.of(certificate);
    assertThat(info.ca()).isTrue();
    assertThat(info.subject()).isEqualTo("CN=demo CA 1,O=dht").isEqualTo(info.issuer());
    assertThat(info.notBefore()).isEqualTo(NOW);
    assertThat(info.notAfter()).isEqualTo(NOW.plus(Duration.ofDays(365)));
  }

  @Test
  void aLeafValidatesAgainstItsCaWithTheJdksPathValidator() throws Exception {
    var leaf = TestPki.leaf(ca).certificate();
    validate(leaf, ca.certificate(), NOW.plusSeconds(60));
    assertThat(Signatures.issuedBy(leaf, ca.certificate())).isTrue();
  }

  @Test
  void aLeafIsForServersAndClientsWithTheNamesAsked() throws Exception {
    var leaf = TestPki.leaf(ca).certificate();
    assertThat(leaf.getExtendedKeyUsage()).containsExactlyInAnyOrder(SERVER_AUTH, CLIENT_AUTH);
    assertThat(leaf.getKeyUsage()[0]).as("digitalSignature").isTrue();
    assertThat(leaf.getBasicConstraints()).as("not a CA").isEqualTo(-1);
    var info = CertificateInfo.of(leaf);
    assertThat(info.dnsNames()).containsExactlyElementsOf(NODE_NAMES);
    assertThat(info.ipAddresses()).isEmpty();
    assertThat(info.ca()).isFalse();
    assertThat(info.subject()).isEqualTo("CN=demo.ns node,O=dht");
    assertThat(info.issuer()).isEqualTo("CN=demo CA 1,O=dht");
    assertThat(info.notAfter()).isEqualTo(NOW.plus(Duration.ofDays(90)));
    assertThat(info.validAt(NOW.plus(Duration.ofDays(90)))).isTrue();
    assertThat(info.validAt(NOW.plus(Duration.ofDays(90)).plusSeconds(1))).isFalse();
  }

  @Test
  void aClientCertificateIsForClientsOnlyAndNamedByItsCommonNameAlone() throws Exception {
    var client =
        ca.issueClient("dht-user.alice", new Validity(NOW, NOW.plus(Duration.ofDays(90))))
            .certificate();
    validate(client, ca.certificate(), NOW.plusSeconds(60));
    assertThat(client.getExtendedKeyUsage()).containsExactly(CLIENT_AUTH);
    assertThat(client.getSubjectAlternativeNames()).isNull();
    assertThat(client.getBasicConstraints()).as("not a CA").isEqualTo(-1);
    assertThat(CertificateInfo.of(client).subject()).isEqualTo("CN=dht-user.alice,O=dht");
    assertThat(CertificateInfo.of(client).commonName()).isEqualTo("dht-user.alice");
  }

  @Test
  void ipAddressesAreAlternativeNamesToo() {
    var leaf =
        ca.issue(
                new LeafRequest(
                    "local node",
                    List.of("localhost"),
                    List.of("127.0.0.1", "::1"),
                    Validity.of(NOW, Duration.ofDays(1))))
            .certificate();
    var info = CertificateInfo.of(leaf);
    assertThat(info.dnsNames()).containsExactly("localhost");
    assertThat(info.ipAddresses()).containsExactly("127.0.0.1", "0:0:0:0:0:0:0:1");
    assertThatThrownBy(() ->
            ca.issue(
                new LeafRequest(
                    "x", List.of(), List.of("not-an-ip"), Validity.of(NOW, Duration.ofDays(1)))))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void anotherCasLeafIsRefused() {
    var other = TestPki.ca("demo CA 2");
    var foreign = TestPki.leaf(other).certificate();
    assertThat(Signatures.issuedBy(foreign, ca.certificate())).isFalse();
    assertThatThrownBy(() -> validate(foreign, ca.certificate(), NOW.plusSeconds(60)))
        .isInstanceOf(CertPathValidatorException.class);
  }

  @Test
  void aCaWithTheSameNameButAnotherKeyDidNotSignIt() {
    var twin = TestPki.ca("demo CA 1");
    var leaf = TestPki.leaf(twin).certificate();
    assertThat(Signatures.issuedBy(leaf, ca.certificate())).isFalse();
    assertThat(Signatures.issuedBy(leaf, twin.certificate())).isTrue();
  }

  @Test
  void aKeyMatchesItsCertificateOnly() {
    var leaf = TestPki.leaf(ca);
    assertThat(Signatures.keyMatches(ca.certificate(), ca.privateKey())).isTrue();
    assertThat(Signatures.keyMatches(leaf.certificate(), leaf.privateKey())).isTrue();
    assertThat(Signatures.keyMatches(ca.certificate(), leaf.privateKey())).isFalse();
  }

  @Test
  void anExpiredLeafIsRefused() {
    var leaf = TestPki.leaf(ca).certificate();
    assertThatThrownBy(() -> validate(leaf, ca.certificate(), NOW.plus(Duration.ofDays(91))))
        .isInstanceOf(CertPathValidatorException.class)
        .hasRootCauseInstanceOf(CertificateExpiredException.class);
  }

  @Test
  void aLeafCanBeCappedAtItsCasEnd() {
    var validity = Validity.of(NOW, Duration.ofDays(90));
    Instant caEnd = NOW.plus(Duration.ofDays(10));
    assertThat(validity.endingNoLaterThan(caEnd).notAfter()).isEqualTo(caEnd);
    assertThat(validity.endingNoLaterThan(NOW.plus(Duration.ofDays(100)))).isEqualTo(validity);
    assertThatThrownBy(() -> new Validity(NOW, NOW)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void serialNumbersDiffer() {
    var first = TestPki.leaf(ca).certificate();
    var second = TestPki.leaf(ca).certificate();
    assertThat(first.getSerialNumber()).isPositive().isNotEqualTo(second.getSerialNumber());
    assertThat(CertificateInfo.fingerprint(first))
        .isNotEqualTo(CertificateInfo.fingerprint(second));
  }

  @Test
  void theFingerprintIsOpensslsForm() {
    assertThat(CertificateInfo.of(ca.certificate()).sha256Fingerprint())
        .matches("([0-9A-F]{2}:){31}[0-9A-F]{2}");
  }

  static void validate(X509Certificate leaf, X509Certificate trusted, Instant at) throws Exception {
    var path = CertificateFactory.getInstance("X.509").generateCertPath(List.of(leaf));
    var parameters = new PKIXParameters(Set.of(new TrustAnchor(trusted, null)));
    parameters.setRevocationEnabled(false); // a private CA publishes no revocation lists
    parameters.setDate(Date.from(at));
    CertPathValidator.getInstance("PKIX").validate(path, parameters);
  }
}
