package dev.dht.operator.tls;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.operator.kube.SecretTexts;
import dev.dht.pki.CertificateAuthority;
import dev.dht.pki.CertificateInfo;
import dev.dht.pki.IssuedCertificate;
import dev.dht.pki.LeafRequest;
import dev.dht.pki.Validity;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What the three Secrets hold, written and read back, and what the plan sees in them. */
class TlsSecretContentTest {
  private static final Instant NOW = Instant.parse("2026-06-01T12:00:00Z");
  private static final List<String> NAMES = NodeDnsNames.of("demo-peers", "demo", "ns");
  private static final CertificateAuthority OLD = ca("old");
  private static final CertificateAuthority NEW = ca("new");

  private static CertificateAuthority ca(String name) {
    return CertificateAuthority.generate(name, Validity.of(NOW, Duration.ofDays(365)));
  }

  private static IssuedCertificate leaf(CertificateAuthority ca) {
    return ca.issue(new LeafRequest("node", NAMES, Validity.of(NOW, Duration.ofDays(90))));
  }

  private static Secret secret(Map<String, String> data, Map<String, String> annotations) {
    return new SecretBuilder()
        .withNewMetadata()
        .withName("demo-x")
        .withAnnotations(annotations)
        .endMetadata()
        .withData(data)
        .build();
  }

  private static String fingerprint(CertificateAuthority ca) {
    return CertificateInfo.fingerprint(ca.certificate());
  }

  @Test
  void theCaSecretKeepsTheCaThePreviousCertificateAndTheHandledRequest() {
    var written = new CaSecret(NEW, OLD.certificate(), "2026-06-01");
    var read = CaSecret.read(secret(written.data(), written.annotations())).orElseThrow();
    assertThat(read.current().certificate()).isEqualTo(NEW.certificate());
    assertThat(read.current().privateKey().getEncoded()).isEqualTo(NEW.privateKey().getEncoded());
    assertThat(read.previous()).isEqualTo(OLD.certificate());
    assertThat(read.rotationHandled()).isEqualTo("2026-06-01");
    assertThat(read.trust().fingerprints()).containsExactly(fingerprint(NEW), fingerprint(OLD));
    assertThat(written.data()).containsOnlyKeys("ca.crt", "ca.key", "previous-ca.crt");
    assertThat(read.withoutPrevious().data()).containsOnlyKeys("ca.crt", "ca.key");
  }

  @Test
  void aCaSecretThatCannotSignIsNoCa() {
    var good = new CaSecret(NEW, null, null).data();
    var swapped = new HashMap<>(good);
    swapped.put("ca.key", new CaSecret(OLD, null, null).data().get("ca.key"));
    assertThat(CaSecret.read(secret(swapped, Map.of()))).as("another CA's key").isEmpty();
    var keyless = new HashMap<>(good);
    keyless.remove("ca.key");
    assertThat(CaSecret.read(secret(keyless, Map.of()))).isEmpty();
    var garbled = new HashMap<>(good);
    garbled.put("ca.crt", "bm90IGEgY2VydGlmaWNhdGU=");
    assertThat(CaSecret.read(secret(garbled, Map.of()))).isEmpty();
    assertThat(CaSecret.read(null)).isEmpty();
  }

  @Test
  void theNodesSecretKeepsCertificateKeyBundleAndWhenEachChanged() {
    var leaf = leaf(NEW);
    var trust = new TrustBundle(List.of(NEW.certificate(), OLD.certificate()));
    var written = new NodeTlsSecret(leaf, trust, NOW, NOW.plusSeconds(180));
    assertThat(written.data()).containsOnlyKeys("tls.crt", "tls.key", "ca.crt");
    assertThat(written.annotations())
        .containsEntry("dht.dev/trust-bundle-changed-at", "2026-06-01T12:00:00Z")
        .containsEntry("dht.dev/certificate-issued-at", "2026-06-01T12:03:00Z");
    var read = NodeTlsSecret.read(secret(written.data(), written.annotations()));
    assertThat(read.certificate().certificate()).isEqualTo(leaf.certificate());
    assertThat(read.trust().fingerprints()).containsExactly(fingerprint(NEW), fingerprint(OLD));
    assertThat(read.trustChangedAt()).isEqualTo(NOW);
    assertThat(read.certificateIssuedAt()).isEqualTo(NOW.plusSeconds(180));
  }

  @Test
  void aNodesSecretWithAKeyOfAnotherCertificateOrNoDatesIsReadAsSuch() {
    var data = new HashMap<>(new NodeTlsSecret(leaf(NEW), TrustBundle.EMPTY, NOW, NOW).data());
    data.put(
        "tls.key", new NodeTlsSecret(leaf(NEW), TrustBundle.EMPTY, NOW, NOW).data().get("tls.key"));
    var read =
        NodeTlsSecret.read(secret(data, Map.of("dht.dev/certificate-issued-at", "yesterday")));
    assertThat(read.certificate()).as("a key of another certificate").isNull();
    assertThat(read.trustChangedAt()).as("a missing date is long ago").isEqualTo(Instant.EPOCH);
    assertThat(read.certificateIssuedAt()).isEqualTo(Instant.EPOCH);
    assertThat(NodeTlsSecret.read(null)).isNull();
  }

  @Test
  void thePlanSeesWhichCaSignedTheCertificateAndWhatEachBundleTrusts() {
    var ca = new CaSecret(NEW, OLD.certificate(), "r1");
    var caSecret = secret(ca.data(), ca.annotations());
    var onlyOld = new TrustBundle(List.of(OLD.certificate()));
    var caCert =
        secret(Map.of("ca.crt", SecretTexts.encode(Map.of("x", onlyOld.pem())).get("x")), Map.of());
    var byOld = new NodeTlsSecret(leaf(OLD), onlyOld, NOW, NOW.minusSeconds(60));
    var nodeTls = secret(byOld.data(), byOld.annotations());

    var seen = new ClusterSecrets(caSecret, caCert, nodeTls).observed();
    assertThat(seen.current().fingerprint()).isEqualTo(fingerprint(NEW));
    assertThat(seen.previous().fingerprint()).isEqualTo(fingerprint(OLD));
    assertThat(seen.certificate().issuer()).isEqualTo(fingerprint(OLD));
    assertThat(seen.certificate().dnsNames()).isEqualTo(Set.copyOf(NAMES));
    assertThat(seen.nodeTrust()).containsExactly(fingerprint(OLD));
    assertThat(seen.publicTrust()).containsExactly(fingerprint(OLD));
    assertThat(seen.trustChangedAt()).isEqualTo(NOW);
    assertThat(seen.certificateIssuedAt()).isEqualTo(NOW.minusSeconds(60));
    assertThat(seen.rotationHandled()).isEqualTo("r1");

    var stranger = new NodeTlsSecret(leaf(ca("stranger")), onlyOld, NOW, NOW);
    var foreignLeaf =
        new ClusterSecrets(caSecret, caCert, secret(stranger.data(), stranger.annotations()))
            .observed();
    assertThat(foreignLeaf.certificate().issuer()).as("signed by neither").isNull();

    var nothing = new ClusterSecrets(null, null, null).observed();
    assertThat(nothing.current()).isNull();
    assertThat(nothing.certificate()).isNull();
    assertThat(nothing.nodeTrust()).isEmpty();
    assertThat(nothing.publicTrust()).isEmpty();
  }

  @Test
  void onlyAControllerReferenceWithTheOwnersUidMakesASecretOurs() {
    var owner = secret(Map.of(), Map.of());
    owner.getMetadata().setUid("uid-1");
    var reference = new OwnerReferenceBuilder().withKind("DhtCluster").withName("demo");
    var ours = secret(Map.of(), Map.of());
    ours.getMetadata()
        .setOwnerReferences(List.of(reference.withUid("uid-1").withController(true).build()));
    var notController = secret(Map.of(), Map.of());
    notController
        .getMetadata()
        .setOwnerReferences(List.of(reference.withUid("uid-1").withController(false).build()));
    var earlierCluster = secret(Map.of(), Map.of());
    earlierCluster
        .getMetadata()
        .setOwnerReferences(List.of(reference.withUid("uid-0").withController(true).build()));
    var byHand = secret(Map.of(), Map.of());

    assertThat(OwnedSecrets.madeFor(ours, owner)).isTrue();
    assertThat(OwnedSecrets.madeFor(notController, owner)).isFalse();
    assertThat(OwnedSecrets.madeFor(earlierCluster, owner)).isFalse();
    assertThat(OwnedSecrets.madeFor(byHand, owner)).isFalse();
  }

  @Test
  void theNodeCertificateNamesEveryWayANodeIsReached() {
    assertThat(NodeDnsNames.of("demo-peers", "demo", "ns"))
        .containsExactly(
            "*.demo-peers.ns.svc",
            "*.demo-peers.ns.svc.cluster.local",
            "*.demo-peers.ns",
            "*.demo-peers",
            "demo",
            "demo.ns",
            "demo.ns.svc",
            "demo.ns.svc.cluster.local",
            "localhost");
    assertThat(SecretNames.of("demo").all())
        .containsExactly("demo-ca", "demo-ca-cert", "demo-node-tls");
  }

  @Test
  void theReportSaysWhereTheCertificatesStand() {
    var ca = new CaSecret(NEW, OLD.certificate(), null);
    var both = ca.trust();
    var byNew = new NodeTlsSecret(leaf(NEW), both, NOW, NOW);
    var secrets =
        new ClusterSecrets(
            secret(ca.data(), ca.annotations()),
            secret(
                Map.of("ca.crt", SecretTexts.encode(Map.of("x", both.pem())).get("x")), Map.of()),
            secret(byNew.data(), byNew.annotations()));
    var report =
        TlsReport.of(secrets, new CertificatePlan.Wait(NOW.plusSeconds(180), "it propagates"));
    assertThat(report.status().getRotationPhase()).isEqualTo(RotationPhase.CertificateReissued);
    assertThat(report.status().getNextStepAt()).isEqualTo("2026-06-01T12:03:00Z");
    assertThat(report.status().getTrustedCaFingerprints())
        .containsExactly(fingerprint(NEW), fingerprint(OLD));
    assertThat(report.nextCheck()).isEqualTo(NOW.plusSeconds(180));
    var condition = report.condition(List.of(), 3, NOW).orElseThrow();
    assertThat(condition.getStatus()).isEqualTo("True");
    assertThat(condition.getReason()).isEqualTo("RotatingCa");
    assertThat(condition.getMessage())
        .isEqualTo(
            "rotating the CA, CertificateReissued: it propagates; next step at"
                + " 2026-06-01T12:03:00Z");

    var foreign = TlsReport.notOwned("ns", List.of("demo-ca"));
    assertThat(foreign.status()).isNull();
    var refused = foreign.condition(List.of(), 3, NOW).orElseThrow();
    assertThat(refused.getStatus()).isEqualTo("False");
    assertThat(refused.getReason()).isEqualTo("SecretNotOwned");
    assertThat(refused.getMessage()).startsWith("Secret ns/demo-ca exists and was not made");
    assertThat(TlsReport.OFF.condition(List.of(), 3, NOW)).isEmpty();
  }
}
