package dev.dht.pki;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.cert.CertificateEncodingException;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;

/**
 * What a certificate says, in plain values: subject and issuer (RFC 2253), validity, alternative
 * names, whether it is a CA, and its SHA-256 fingerprint in the form {@code openssl x509 -noout
 * -fingerprint -sha256} prints (upper-case hex pairs joined by colons).
 */
public record CertificateInfo(
    String subject,
    String issuer,
    Instant notBefore,
    Instant notAfter,
    List<String> dnsNames,
    List<String> ipAddresses,
    boolean ca,
    String sha256Fingerprint) {

  /** GeneralName tags (RFC 5280) as X509Certificate#getSubjectAlternativeNames gives them. */
  private static final int DNS_NAME = 2;

  private static final int IP_ADDRESS = 7;

  public static CertificateInfo of(X509Certificate certificate) {
    var dns = new ArrayList<String>();
    var ips = new ArrayList<String>();
    try {
      var names = certificate.getSubjectAlternativeNames();
      if (names != null) {
        for (List<?> name : names) {
          int tag = (Integer) name.get(0);
          if (tag == DNS_NAME) {
            dns.add((String) name.get(1));
          } else if (tag == IP_ADDRESS) {
            ips.add((String) name.get(1));
          }
        }
      }
    } catch (CertificateParsingException e) {
      throw new PkiException("cannot read the alternative names", e);
    }
    return new CertificateInfo(
        certificate.getSubjectX500Principal().getName(),
        certificate.getIssuerX500Principal().getName(),
        certificate.getNotBefore().toInstant(),
        certificate.getNotAfter().toInstant(),
        List.copyOf(dns),
        List.copyOf(ips),
        certificate.getBasicConstraints() >= 0,
        fingerprint(certificate));
  }

  /** The subject's common name (its most specific CN); null when it has none. */
  public String commonName() {
    try {
      var rdns = new LdapName(subject).getRdns();
      for (int i = rdns.size() - 1; i >= 0; i--) {
        if (rdns.get(i).getType().equalsIgnoreCase("CN")) {
          return rdns.get(i).getValue().toString();
        }
      }
      return null;
    } catch (InvalidNameException e) {
      throw new PkiException("cannot read the subject " + subject, e);
    }
  }

  /** SHA-256 of the DER encoding, as {@code AB:CD:...}. */
  public static String fingerprint(X509Certificate certificate) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(certificate.getEncoded());
      return HexFormat.ofDelimiter(":").withUpperCase().formatHex(digest);
    } catch (NoSuchAlgorithmException | CertificateEncodingException e) {
      throw new PkiException("cannot fingerprint a certificate", e);
    }
  }

  /** Whether the certificate is valid at {@code instant} by its dates alone. */
  public boolean validAt(Instant instant) {
    return !instant.isBefore(notBefore) && !instant.isAfter(notAfter);
  }
}
