package dev.dht.node.tls;

import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.util.List;

/**
 * Whether some CAs vouch for a certificate chain: one of them signed a certificate of the chain
 * (the leaf, or an intermediate the client sent with it), or is in it. Pure.
 */
public final class TrustedIssuers {
  private TrustedIssuers() {}

  public static boolean vouchFor(List<X509Certificate> chain, List<X509Certificate> cas) {
    for (X509Certificate certificate : chain) {
      if (cas.contains(certificate) || signedByAny(certificate, cas)) {
        return true;
      }
    }
    return false;
  }

  static boolean signedByAny(X509Certificate leaf, List<X509Certificate> cas) {
    for (X509Certificate ca : cas) {
      if (leaf.getIssuerX500Principal().equals(ca.getSubjectX500Principal())) {
        try {
          leaf.verify(ca.getPublicKey());
          return true;
        } catch (GeneralSecurityException e) {
          // another CA of the same name: not this one
        }
      }
    }
    return false;
  }
}
