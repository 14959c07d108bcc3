package dev.dht.pki;

import java.util.List;

/**
 * What a leaf certificate should say: a common name (for people; TLS checks the alternative names),
 * the DNS names (wildcards such as {@code *.peers.ns.svc} allowed) and IP addresses it is valid
 * for, and its validity. The certificate is good for both ends of a connection (extended key usages
 * serverAuth and clientAuth), as the nodes' peer connections are mutual TLS.
 */
public record LeafRequest(
    String commonName, List<String> dnsNames, List<String> ipAddresses, Validity validity) {
  public LeafRequest {
    dnsNames = List.copyOf(dnsNames);
    ipAddresses = List.copyOf(ipAddresses);
    if (dnsNames.isEmpty() && ipAddresses.isEmpty()) {
      throw new IllegalArgumentException("a leaf certificate needs at least one name");
    }
  }

  /** A request for DNS names only. */
  public LeafRequest(String commonName, List<String> dnsNames, Validity validity) {
    this(commonName, dnsNames, List.of(), validity);
  }
}
