package dev.dht.node.auth;

import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;

/**
 * The subject common name (CN) of the client certificate a TLS connection's handshake verified
 * against the cluster's CAs. Read once per TLS session and kept in it: parsing the subject on every
 * request of a keep-alive connection would cost the request path for nothing.
 */
public final class CertificateNames {
  private static final String KEY = "dev.dht.node.auth.commonName";

  /** Kept in a session without a client certificate (an SSLSession value cannot be null). */
  private static final String NONE = "";

  private CertificateNames() {}

  /**
   * The CN of the verified client certificate of {@code session}; null if there is none (plain
   * HTTP, no certificate, or a subject without exactly one CN).
   */
  public static String commonName(SSLSession session) {
    if (session == null) {
      return null;
    }
    Object known = session.getValue(KEY);
    if (known == null) {
      known = read(session);
      session.putValue(KEY, known);
    }
    String name = (String) known;
    return name.isEmpty() ? null : name;
  }

  private static String read(SSLSession session) {
    try {
      Certificate[] chain = session.getPeerCertificates();
      return chain.length > 0 && chain[0] instanceof X509Certificate leaf
          ? commonName(leaf.getSubjectX500Principal().getName())
          : NONE;
    } catch (SSLPeerUnverifiedException e) {
      return NONE;
    }
  }

  /** The one CN of an RFC 2253 name; {@link #NONE} if it has none or several. */
  static String commonName(String rfc2253) {
    try {
      String found = NONE;
      for (Rdn rdn : new LdapName(rfc2253).getRdns()) {
        if (rdn.getType().equalsIgnoreCase("CN")) {
          if (!found.isEmpty() || !(rdn.getValue() instanceof String value) || value.isEmpty()) {
            return NONE;
          }
          found = value;
        }
      }
      return found;
    } catch (InvalidNameException e) {
      return NONE;
    }
  }
}
