package dev.dht.pki;

import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;

/** Whether a certificate was signed by a CA. */
public final class Signatures {
  private Signatures() {}

  /**
   * The certificate names {@code issuer}'s subject as its issuer and {@code issuer}'s key verifies
   * its signature. Validity dates are not looked at: this tells which CA signed, not whether the
   * certificate is good today.
   */
  public static boolean issuedBy(X509Certificate certificate, X509Certificate issuer) {
    if (!certificate.getIssuerX500Principal().equals(issuer.getSubjectX500Principal())) {
      return false;
    }
    try {
      certificate.verify(issuer.getPublicKey());
      return true;
    } catch (GeneralSecurityException e) {
      return false;
    }
  }
}
