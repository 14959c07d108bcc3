package dev.dht.operator.tls;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.pki.CertificateAuthority;
import dev.dht.pki.CertificateInfo;
import dev.dht.pki.LeafRequest;
import dev.dht.pki.Validity;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The Certificate asked of cert-manager, and what the operator makes of cert-manager's answer. */
class CertManagerCertificateTest {
  private static final Instant NOW = Instant.parse("2026-06-01T12:00:00Z");
  private static final List<String> NAMES = NodeDnsNames.of("demo-peers", "demo", "ns");
  private static final IssuerRef ISSUER = IssuerRef.builder().name("team-ca").build();
  private static final TlsCluster CLUSTER =
      new TlsCluster(
          new ConfigMapBuilder()
              .withNewMetadata()
              .withName("demo")
              .withNamespace("ns")
              .withUid("u1")
              .endMetadata()
              .build(),
          Map.of("app.kubernetes.io/instance", "demo"),
          NAMES);

  @Test
  void theCertificateAsksForWhatTheOperatorsOwnCaWouldIssue() {
    var desired = CertManagerCertificate.desired(CLUSTER, ISSUER);
    assertThat(desired.getMetadata().getName()).isEqualTo("demo-node-tls");
    assertThat(desired.getMetadata().getOwnerReferences().getFirst().getUid()).isEqualTo("u1");
    assertThat(desired.getMetadata().getOwnerReferences().getFirst().getController()).isTrue();
    var spec = CertManagerCertificate.spec(CLUSTER, ISSUER);
    assertThat(spec)
        .containsEntry("secretName", "demo-node-tls")
        .containsEntry("dnsNames", NAMES)
        .containsEntry("duration", "2160h")
        .containsEntry("renewBefore", "720h")
        .containsEntry(
            "issuerRef", Map.of("name", "team-ca", "kind", "Issuer", "group", "cert-manager.io"));
    assertThat(spec.get("privateKey"))
        .isEqualTo(
            Map.of(
                "algorithm",
                "ECDSA",
                "size",
                256,
                "encoding",
                "PKCS8",
                "rotationPolicy",
                "Always"));
  }

  @Test
  void aCertificateReadBackWithDefaultsAddedStillAsksForTheSame() {
    var wanted = CertManagerCertificate.spec(CLUSTER, ISSUER);
    // what the apiserver returns: JSON numbers, and fields a webhook or cert-manager defaulted
    var json = Serialization.asJson(CertManagerCertificate.desired(CLUSTER, ISSUER));
    var observed = Serialization.unmarshal(json, GenericKubernetesResource.class);
    @SuppressWarnings("unchecked")
    var spec = (Map<String, Object>) observed.getAdditionalProperties().get("spec");
    spec.put("revisionHistoryLimit", 1);
    assertThat(CertManagerCertificate.asksFor(observed, wanted)).isTrue();

    var otherIssuer = new LinkedHashMap<>(wanted);
    otherIssuer.put(
        "issuerRef", Map.of("name", "other", "kind", "Issuer", "group", "cert-manager.io"));
    assertThat(CertManagerCertificate.asksFor(observed, otherIssuer)).isFalse();
    spec.put("dnsNames", NAMES.subList(1, NAMES.size()));
    assertThat(CertManagerCertificate.asksFor(observed, wanted)).isFalse();
  }

  @Test
  void readinessIsCertManagersReadyCondition() {
    var certificate = CertManagerCertificate.desired(CLUSTER, ISSUER);
    assertThat(CertManagerCertificate.readiness(certificate).ready()).isFalse();
    assertThat(CertManagerCertificate.readiness(certificate).describe())
        .isEqualTo("no Ready condition yet");
    certificate.setAdditionalProperty(
        "status",
        Map.of(
            "conditions",
            List.of(
                Map.of("type", "Issuing", "status", "True"),
                Map.of(
                    "type", "Ready",
                    "status", "False",
                    "reason", "DoesNotExist",
                    "message", "Issuing certificate as Secret does not exist"))));
    var readiness = CertManagerCertificate.readiness(certificate);
    assertThat(readiness.ready()).isFalse();
    assertThat(readiness.describe())
        .isEqualTo("DoesNotExist: Issuing certificate as Secret does not exist");
  }

  @Test
  void theReportStopsTheNodesUntilTheSecretHoldsACertificateAndItsCa() {
    var pending = new CertManagerCertificate.Readiness(false, "", "");
    var noSecret = TlsReport.issuedBy(ISSUER, "demo-node-tls", null, pending, NOW);
    assertThat(noSecret.blocked()).isTrue();
    assertThat(noSecret.health().reason()).isEqualTo(TlsReport.PENDING);
    assertThat(noSecret.nextCheck()).isEqualTo(NOW.plus(TlsReport.PENDING_POLL));

    var ca = CertificateAuthority.generate("team", Validity.of(NOW, Duration.ofDays(365)));
    var leaf = ca.issue(new LeafRequest("node", NAMES, Validity.of(NOW, Duration.ofDays(90))));
    var withoutCa = new NodeTlsSecret(leaf, TrustBundle.EMPTY, NOW, NOW);
    var ready = new CertManagerCertificate.Readiness(true, "Ready", "up to date");
    var noCa = TlsReport.issuedBy(ISSUER, "demo-node-tls", withoutCa, ready, NOW);
    assertThat(noCa.blocked()).isTrue();
    assertThat(noCa.health().reason()).isEqualTo(TlsReport.NO_CA);

    var issued = new NodeTlsSecret(leaf, new TrustBundle(List.of(ca.certificate())), NOW, NOW);
    var report = TlsReport.issuedBy(ISSUER, "demo-node-tls", issued, ready, NOW);
    assertThat(report.blocked()).isFalse();
    assertThat(report.health().ready()).isTrue();
    assertThat(report.status().getIssuer()).isEqualTo("Issuer/team-ca");
    assertThat(report.status().getCaFingerprint())
        .isEqualTo(CertificateInfo.fingerprint(ca.certificate()));

    // a renewal cert-manager cannot make: the nodes keep theirs, the condition says so
    var failing = new CertManagerCertificate.Readiness(false, "Failed", "issuer not ready");
    var degraded = TlsReport.issuedBy(ISSUER, "demo-node-tls", issued, failing, NOW);
    assertThat(degraded.blocked()).isFalse();
    assertThat(degraded.health().ready()).isFalse();
    assertThat(degraded.health().message())
        .startsWith("cert-manager says Failed: issuer not ready");
  }

  @Test
  void issuersAreNamedAsKubectlWould() {
    assertThat(ISSUER.describe()).isEqualTo("Issuer/team-ca");
    assertThat(IssuerRef.builder().name("x").kind("ClusterIssuer").build().describe())
        .isEqualTo("ClusterIssuer/x");
    assertThat(
            IssuerRef.builder()
                .name("x")
                .kind("AWSPCAIssuer")
                .group("awspca.cert-manager.io")
                .build()
                .describe())
        .isEqualTo("AWSPCAIssuer.awspca.cert-manager.io/x");
  }
}
