package dev.dht.pki;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.util.Map;

/** Whether a certificate was signed by a CA, and whether a key belongs to a certificate. */
public final class Signatures {
  private static final Map<String, String> ALGORITHMS =
      Map.of("EC", "SHA256withECDSA", "RSA", "SHA256withRSA", "Ed25519", "Ed25519");

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

  /**
   * The key is the private half of the certificate's public key: what it signs, the certificate's
   * key verifies. A mismatch (two files edited apart) would make a CA whose certificates nobody can
   * verify.
   */
  public static boolean keyMatches(X509Certificate certificate, PrivateKey key) {
    String algorithm = ALGORITHMS.get(key.getAlgorithm());
    if (algorithm == null
        || !key.getAlgorithm().equals(certificate.getPublicKey().getAlgorithm())) {
      return false;
    }
    byte[] challenge = "dht key check".getBytes(StandardCharsets.UTF_8);
    try {
      var signer = Signature.getInstance(algorithm);
      signer.initSign(key);
      signer.update(challenge);
      byte[] signature = signer.sign();
      var verifier = Signature.getInstance(algorithm);
      verifier.initVerify(certificate.getPublicKey());
      verifier.update(challenge);
      return verifier.verify(signature);
    } catch (GeneralSecurityException e) {
      return false;
    }
  }
}
