package dev.dht.operator.tls;

import dev.dht.operator.kube.SecretTexts;
import dev.dht.pki.IssuedCertificate;
import dev.dht.pki.Pem;
import io.fabric8.kubernetes.api.model.Secret;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the Secret {@code <cluster>-node-tls} holds, the files every node pod mounts: the nodes'
 * certificate and key ({@value #CERT}, {@value #KEY}, PEM, the key PKCS#8) and the trust bundle
 * ({@value #CA}), with when each last changed (annotations {@value #ISSUED_AT} and {@value
 * #TRUST_CHANGED_AT}): a rotation's next step waits for the last change to reach the pods.
 *
 * @param certificate null when there is none that can be used (missing, unreadable, or a key that
 *     is not the certificate's)
 */
public record NodeTlsSecret(
    IssuedCertificate certificate,
    TrustBundle trust,
    Instant trustChangedAt,
    Instant certificateIssuedAt) {
  /** Kubernetes' type for a certificate and key: tools and people know what it holds. */
  public static final String TYPE = "kubernetes.io/tls";

  public static final String CERT = "tls.crt";
  public static final String KEY = "tls.key";
  public static final String CA = "ca.crt";
  static final String TRUST_CHANGED_AT = "dht.dev/trust-bundle-changed-at";
  static final String ISSUED_AT = "dht.dev/certificate-issued-at";

  /** What the Secret holds; null when there is no Secret. */
  static NodeTlsSecret read(Secret secret) {
    if (secret == null) {
      return null;
    }
    return new NodeTlsSecret(
        CertificateAndKey.read(SecretTexts.text(secret, CERT), SecretTexts.text(secret, KEY)),
        TrustBundle.parse(SecretTexts.text(secret, CA)),
        SecretData.instant(secret, TRUST_CHANGED_AT),
        SecretData.instant(secret, ISSUED_AT));
  }

  Map<String, String> data() {
    var texts = new LinkedHashMap<String, String>();
    texts.put(CERT, Pem.certificate(certificate.certificate()));
    texts.put(KEY, Pem.privateKey(certificate.privateKey()));
    texts.put(CA, trust.pem());
    return SecretTexts.encode(texts);
  }

  Map<String, String> annotations() {
    return Map.of(
        TRUST_CHANGED_AT, SecretData.format(trustChangedAt),
        ISSUED_AT, SecretData.format(certificateIssuedAt));
  }
}
