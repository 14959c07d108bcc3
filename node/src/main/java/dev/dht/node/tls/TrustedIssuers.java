package dev.dht.node.tls;

import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.util.List;

/** Whether one of some CAs signed a certificate: its issuer's name and its signature. Pure. */
public final class TrustedIssuers {
  private TrustedIssuers() {}

  public static boolean signedByAny(X509Certificate leaf, List<X509Certificate> cas) {
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
