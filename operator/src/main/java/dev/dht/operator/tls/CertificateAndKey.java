package dev.dht.operator.tls;

import dev.dht.pki.IssuedCertificate;
import dev.dht.pki.Pem;
import dev.dht.pki.PkiException;
import dev.dht.pki.Signatures;

/** A certificate and its key as a Secret holds them (PEM), read only if they can be used. */
public final class CertificateAndKey {
  private CertificateAndKey() {}

  /**
   * The pair; null when one is missing or unreadable, or the key is not the certificate's. The
   * certificate may come with its chain (an issuer with intermediates writes leaf first, then the
   * chain): the first is the leaf.
   */
  public static IssuedCertificate read(String certificate, String key) {
    if (certificate == null || key == null) {
      return null;
    }
    try {
      var chain = Pem.parseCertificates(certificate);
      if (chain.isEmpty()) {
        return null;
      }
      var issued = new IssuedCertificate(chain.getFirst(), Pem.parsePrivateKey(key));
      return Signatures.keyMatches(issued.certificate(), issued.privateKey()) ? issued : null;
    } catch (PkiException e) {
      return null;
    }
  }
}
