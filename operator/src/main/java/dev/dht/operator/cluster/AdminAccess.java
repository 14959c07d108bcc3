package dev.dht.operator.cluster;

import static java.util.Objects.requireNonNullElse;

import dev.dht.operator.kube.SecretTexts;
import dev.dht.operator.scaling.NodeAccess;
import dev.dht.operator.tls.NodeTlsSecret;
import dev.dht.operator.tls.SecretNames;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * How the operator reaches a cluster's nodes on their admin port, read from the cluster's Secrets:
 * the cluster secret the nodes expect in the admin header, and on a TLS cluster its CA bundle
 * ({@code <cluster>-ca-cert}); none yet: trusting nothing, so the secret never goes out in clear.
 * Used by the cluster's own reconciler and by load tests that profile its nodes.
 */
public final class AdminAccess {
  private AdminAccess() {}

  /** The admin access to the nodes of DhtCluster {@code clusterName} of {@code transport}. */
  public static NodeAccess of(
      KubernetesClient client, String namespace, String clusterName, Transport transport) {
    String cas = null;
    if (transport.tls()) {
      Secret bundle =
          client
              .secrets()
              .inNamespace(namespace)
              .withName(SecretNames.of(clusterName).caCert())
              .get();
      cas = requireNonNullElse(SecretTexts.text(bundle, NodeTlsSecret.CA), "");
    }
    Secret secret = client.secrets().inNamespace(namespace).withName(secretName(clusterName)).get();
    String text = SecretTexts.text(secret, ClusterModel.SECRET_KEY);
    return new NodeAccess(text == null ? null : text.strip(), transport.ports().admin(), cas);
  }

  /** The Secret with the cluster secret of DhtCluster {@code clusterName}. */
  static String secretName(String clusterName) {
    return clusterName + "-secret";
  }
}
