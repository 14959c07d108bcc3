package dev.dht.operator.tls;

import dev.dht.operator.kube.SecretTexts;
import dev.dht.pki.CertificateInfo;
import dev.dht.pki.Signatures;
import io.fabric8.kubernetes.api.model.Secret;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;

/**
 * A cluster's three TLS Secrets as last read or written (each null while it does not exist), and
 * what the certificate plan sees in them.
 */
record ClusterSecrets(Secret ca, Secret caCert, Secret nodeTls) {
  Optional<CaSecret> caContent() {
    return CaSecret.read(ca);
  }

  TrustBundle publicTrust() {
    return TrustBundle.parse(SecretTexts.text(caCert, CaSecret.CERT));
  }

  /** Null while the nodes' Secret does not exist. */
  NodeTlsSecret nodeContent() {
    return NodeTlsSecret.read(nodeTls);
  }

  ClusterSecrets withCa(Secret written) {
    return new ClusterSecrets(written, caCert, nodeTls);
  }

  ClusterSecrets withCaCert(Secret written) {
    return new ClusterSecrets(ca, written, nodeTls);
  }

  ClusterSecrets withNodeTls(Secret written) {
    return new ClusterSecrets(ca, caCert, written);
  }

  CertificatePlan.Observed observed() {
    var content = caContent();
    var current = content.map(c -> c.current().certificate()).orElse(null);
    var previous = content.map(CaSecret::previous).orElse(null);
    var node = nodeContent();
    var issued = node == null ? null : node.certificate();
    return new CertificatePlan.Observed(
        ca(current),
        ca(previous),
        issued == null ? null : nodeCertificate(issued.certificate(), current, previous),
        node == null ? Set.of() : node.trust().fingerprints(),
        caCert == null ? Set.of() : publicTrust().fingerprints(),
        node == null ? Instant.EPOCH : node.trustChangedAt(),
        node == null ? Instant.EPOCH : node.certificateIssuedAt(),
        content.map(CaSecret::rotationHandled).orElse(null));
  }

  private static CertificatePlan.Ca ca(X509Certificate certificate) {
    return certificate == null
        ? null
        : new CertificatePlan.Ca(
            CertificateInfo.fingerprint(certificate), certificate.getNotAfter().toInstant());
  }

  /** The node certificate, with the fingerprint of whichever of the two CAs signed it. */
  private static CertificatePlan.NodeCertificate nodeCertificate(
      X509Certificate certificate, X509Certificate current, X509Certificate previous) {
    String issuer = null;
    for (var ca : new X509Certificate[] {current, previous}) {
      if (ca != null && Signatures.issuedBy(certificate, ca)) {
        issuer = CertificateInfo.fingerprint(ca);
        break;
      }
    }
    var info = CertificateInfo.of(certificate);
    return new CertificatePlan.NodeCertificate(
        issuer, info.notAfter(), new LinkedHashSet<>(info.dnsNames()));
  }
}
