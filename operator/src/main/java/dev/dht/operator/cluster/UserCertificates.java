package dev.dht.operator.cluster;

import dev.dht.operator.kube.Owners;
import dev.dht.operator.tls.ClusterCa;
import dev.dht.operator.users.DhtUser;
import dev.dht.operator.users.UserCertificate;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Instant;
import java.util.Optional;

/**
 * The client certificates of a cluster's users ({@code spec.clientCertificate}), issued by the
 * cluster's CA into each user's Secret {@code <user>-tls}: a new one when {@link UserCertificate}
 * says so, the bundle brought up to date when a CA rotation changed it. Runs in the cluster's
 * reconciliation, right after its certificates: a CA rotation's first step is followed by the
 * users' new certificates long before the previous CA leaves the nodes' bundle. A Secret of that
 * name the user does not own is left alone (the user's status says so).
 */
final class UserCertificates {
  private final KubernetesClient client;
  private final DhtCluster cluster;
  private final Instant now;
  private Optional<ClusterCa> ca;

  UserCertificates(KubernetesClient client, DhtCluster cluster, Instant now) {
    this.client = client;
    this.cluster = cluster;
    this.now = now;
  }

  /**
   * Whether the cluster can give its users client certificates: TLS from the operator's CA (with
   * spec.tls.issuerRef, not yet).
   */
  static boolean issues(ClusterModel model, DhtCluster cluster) {
    var tls = cluster.getSpec().getTls();
    return model.tls() && (tls == null || tls.getIssuerRef() == null);
  }

  /** The user's certificate made or renewed if it must be; false when there is no CA to sign. */
  boolean ensure(DhtUser user) {
    var secrets = client.secrets().inNamespace(cluster.getMetadata().getNamespace());
    var existing = secrets.withName(UserCertificate.nameOf(user.getMetadata().getName())).get();
    if (existing != null && !Owners.isControlledBy(existing, user)) {
      return false;
    }
    if (ca == null) {
      ca = ClusterCa.read(client, cluster);
    }
    if (ca.isEmpty()) {
      return false;
    }
    if (UserCertificate.whyNew(existing, user.getMetadata().getName(), ca.get(), now) != null) {
      var issued = UserCertificate.issue(user, existing, ca.get(), now);
      if (existing == null) {
        secrets.resource(issued).create();
      } else {
        secrets.resource(issued).update(); // at the version read
      }
    } else if (UserCertificate.trustChanged(existing, ca.get())) {
      secrets.resource(UserCertificate.withTrust(user, existing, ca.get())).update();
    }
    return true;
  }
}
