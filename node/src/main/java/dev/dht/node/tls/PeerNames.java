package dev.dht.node.tls;

import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What makes a client certificate a peer's: it carries one of this node's own peer names. The nodes
 * of a cluster share one certificate, whose wildcards ({@code *.<c>-peers.<ns>.svc}, ...) name the
 * cluster's pods; a certificate the same CA or issuer signed for anything else (another cluster
 * sharing a cert-manager ClusterIssuer, a user) does not carry them. A node certificate without
 * wildcards (local runs: {@code localhost}, addresses) is matched on all its names. Pure.
 *
 * @param names the DNS names and IP addresses of which a peer's certificate must carry one
 */
public record PeerNames(Set<String> names) {
  private static final int DNS_NAME = 2;
  private static final int IP_ADDRESS = 7;

  public PeerNames {
    names = Set.copyOf(names);
  }

  /** The peer names of this node's own certificate. */
  public static PeerNames of(X509Certificate own) {
    var all = alternativeNames(own);
    var wildcards = new HashSet<String>();
    for (String name : all) {
      if (name.startsWith("*.")) {
        wildcards.add(name);
      }
    }
    return new PeerNames(wildcards.isEmpty() ? all : wildcards);
  }

  /** Whether {@code certificate} carries one of the names. */
  public boolean carriedBy(X509Certificate certificate) {
    for (String name : alternativeNames(certificate)) {
      if (names.contains(name)) {
        return true;
      }
    }
    return false;
  }

  private static Set<String> alternativeNames(X509Certificate certificate) {
    var found = new HashSet<String>();
    try {
      Collection<List<?>> names = certificate.getSubjectAlternativeNames();
      if (names != null) {
        for (List<?> name : names) {
          int tag = (Integer) name.get(0);
          if (tag == DNS_NAME) {
            found.add(((String) name.get(1)).toLowerCase(java.util.Locale.ROOT));
          } else if (tag == IP_ADDRESS) {
            found.add((String) name.get(1));
          }
        }
      }
    } catch (CertificateParsingException e) {
      return Set.of();
    }
    return found;
  }
}
