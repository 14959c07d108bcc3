package dev.dht.operator.tls;

import java.util.List;

/**
 * The names of a cluster's TLS Secrets.
 *
 * @param ca the CA certificate and key (private to the operator)
 * @param caCert the trust bundle alone, for clients ({@code curl --cacert})
 * @param nodeTls the nodes' certificate, key and trust bundle, mounted in their pods
 */
public record SecretNames(String ca, String caCert, String nodeTls) {
  public static SecretNames of(String clusterName) {
    return new SecretNames(
        clusterName + "-ca", clusterName + "-ca-cert", clusterName + "-node-tls");
  }

  public List<String> all() {
    return List.of(ca, caCert, nodeTls);
  }
}
