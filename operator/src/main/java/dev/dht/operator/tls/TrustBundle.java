package dev.dht.operator.tls;

import dev.dht.pki.CertificateInfo;
import dev.dht.pki.Pem;
import dev.dht.pki.PkiException;
import java.security.cert.X509Certificate;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** The CA certificates a node or client trusts: ca.crt, the current CA first. */
public record TrustBundle(List<X509Certificate> certificates) {
  static final TrustBundle EMPTY = new TrustBundle(List.of());

  public TrustBundle {
    certificates = List.copyOf(certificates);
  }

  /** The bundle in a ca.crt; an unreadable one trusts nothing (and is rewritten). */
  public static TrustBundle parse(String pem) {
    if (pem == null) {
      return EMPTY;
    }
    try {
      return new TrustBundle(Pem.parseCertificates(pem));
    } catch (PkiException e) {
      return EMPTY;
    }
  }

  public String pem() {
    return Pem.certificates(certificates);
  }

  public Set<String> fingerprints() {
    var fingerprints = new LinkedHashSet<String>();
    certificates.forEach(c -> fingerprints.add(CertificateInfo.fingerprint(c)));
    return fingerprints;
  }
}
