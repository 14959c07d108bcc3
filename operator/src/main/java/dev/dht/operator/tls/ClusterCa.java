package dev.dht.operator.tls;

import dev.dht.pki.CertificateAuthority;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Optional;

/**
 * The CA the operator runs for a cluster, as others may use it: to sign a user's client
 * certificate. Read from {@code <cluster>-ca}, and only if the operator made that Secret for this
 * cluster (its UID): a CA someone else put there signs nothing.
 *
 * @param current the CA that signs now
 * @param trust the bundle the nodes trust: the current CA, during a rotation also the previous
 */
public record ClusterCa(CertificateAuthority current, TrustBundle trust) {
  public static Optional<ClusterCa> read(KubernetesClient client, HasMetadata cluster) {
    var secret =
        client
            .secrets()
            .inNamespace(cluster.getMetadata().getNamespace())
            .withName(SecretNames.of(cluster.getMetadata().getName()).ca())
            .get();
    if (secret == null || !OwnedSecrets.madeFor(secret, cluster)) {
      return Optional.empty();
    }
    return CaSecret.read(secret).map(ca -> new ClusterCa(ca.current(), ca.trust()));
  }
}
