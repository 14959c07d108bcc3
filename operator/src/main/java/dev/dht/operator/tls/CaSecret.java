package dev.dht.operator.tls;

import dev.dht.operator.kube.SecretTexts;
import dev.dht.pki.CertificateAuthority;
import dev.dht.pki.Pem;
import dev.dht.pki.PkiException;
import dev.dht.pki.Signatures;
import io.fabric8.kubernetes.api.model.Secret;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * What the Secret {@code <cluster>-ca} holds: the CA that signs ({@value #CERT}, {@value #KEY}),
 * during a rotation the previous CA's certificate ({@value #PREVIOUS_CERT}, still trusted, never
 * used to sign), and the last value of {@value CertificatePlan#ROTATE_ANNOTATION} that made a CA
 * (annotation {@value #ROTATION_HANDLED}). Kept with the CA, so that it is written in the same
 * update: a request is never lost nor handled twice.
 */
record CaSecret(CertificateAuthority current, X509Certificate previous, String rotationHandled) {
  static final String CERT = "ca.crt";
  static final String KEY = "ca.key";
  static final String PREVIOUS_CERT = "previous-ca.crt";
  static final String ROTATION_HANDLED = "dht.dev/rotate-ca-handled";

  /**
   * The CA in the Secret; empty when there is none that can sign: no Secret, a key or certificate
   * missing or unreadable, or a key that is not the certificate's.
   */
  static Optional<CaSecret> read(Secret secret) {
    String certificate = SecretTexts.text(secret, CERT);
    String key = SecretTexts.text(secret, KEY);
    if (certificate == null || key == null) {
      return Optional.empty();
    }
    try {
      var ca =
          new CertificateAuthority(Pem.parseCertificate(certificate), Pem.parsePrivateKey(key));
      if (!Signatures.keyMatches(ca.certificate(), ca.privateKey())) {
        return Optional.empty();
      }
      return Optional.of(
          new CaSecret(
              ca,
              previous(SecretTexts.text(secret, PREVIOUS_CERT)),
              SecretData.annotation(secret, ROTATION_HANDLED)));
    } catch (PkiException e) {
      return Optional.empty();
    }
  }

  /** An unreadable previous certificate is dropped: it could not be trusted anyway. */
  private static X509Certificate previous(String pem) {
    if (pem == null) {
      return null;
    }
    try {
      return Pem.parseCertificate(pem);
    } catch (PkiException e) {
      return null;
    }
  }

  /** The bundle this CA stands for: the current CA, then the previous one. */
  TrustBundle trust() {
    var certificates = new ArrayList<X509Certificate>();
    certificates.add(current.certificate());
    if (previous != null) {
      certificates.add(previous);
    }
    return new TrustBundle(certificates);
  }

  CaSecret withoutPrevious() {
    return new CaSecret(current, null, rotationHandled);
  }

  Map<String, String> data() {
    var texts = new LinkedHashMap<String, String>();
    texts.put(CERT, Pem.certificate(current.certificate()));
    texts.put(KEY, Pem.privateKey(current.privateKey()));
    if (previous != null) {
      texts.put(PREVIOUS_CERT, Pem.certificate(previous));
    }
    return SecretTexts.encode(texts);
  }

  Map<String, String> annotations() {
    return rotationHandled == null ? Map.of() : Map.of(ROTATION_HANDLED, rotationHandled);
  }
}
