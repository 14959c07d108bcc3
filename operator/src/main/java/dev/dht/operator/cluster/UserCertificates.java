package dev.dht.operator.cluster;

import dev.dht.operator.kube.Owners;
import dev.dht.operator.tls.CertManagerCertificate;
import dev.dht.operator.tls.CertManagerSecrets;
import dev.dht.operator.tls.ClusterCa;
import dev.dht.operator.tls.IssuerRef;
import dev.dht.operator.users.DhtUser;
import dev.dht.operator.users.UserCertificate;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Instant;
import java.util.Optional;

/**
 * The client certificates of a cluster's users ({@code spec.clientCertificate}), in each user's
 * Secret {@code <user>-tls}. With the operator's CA, issued here: a new one when {@link
 * UserCertificate} says so, the bundle brought up to date when a CA rotation changed it. This runs
 * in the cluster's reconciliation right after its certificates, so a CA rotation's first step is
 * followed by the users' new certificates long before the previous CA leaves the nodes' bundle.
 * With {@code spec.tls.issuerRef}, a cert-manager Certificate per user, owned by the user, which
 * cert-manager issues and renews. A Secret of that name the user does not own (or that cert-manager
 * did not write for the user's Certificate) is left alone; the user's status says so.
 */
final class UserCertificates {
  private final KubernetesClient client;
  private final DhtCluster cluster;
  private final IssuerRef issuer;
  private final Instant now;
  private Optional<ClusterCa> ca;

  UserCertificates(KubernetesClient client, DhtCluster cluster, Instant now) {
    this.client = client;
    this.cluster = cluster;
    var tls = cluster.getSpec().getTls();
    this.issuer = tls == null ? null : tls.getIssuerRef();
    this.now = now;
  }

  /** The user's certificate made or renewed if it must be; false when it cannot be. */
  boolean ensure(DhtUser user) {
    return issuer == null ? fromOwnCa(user) : fromCertManager(user);
  }

  private boolean fromOwnCa(DhtUser user) {
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
    if (UserCertificate.whyNew(existing, user, ca.get(), now) != null) {
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

  private boolean fromCertManager(DhtUser user) {
    String namespace = cluster.getMetadata().getNamespace();
    String name = UserCertificate.nameOf(user.getMetadata().getName());
    var certificates = CertManagerSecrets.certificates(client, namespace);
    var certificate = certificates.withName(name).get();
    var secret = client.secrets().inNamespace(namespace).withName(name).get();
    if ((certificate != null && !Owners.isControlledBy(certificate, user))
        || (secret != null && !CertManagerCertificate.wrote(secret, certificate))) {
      return false;
    }
    var wanted = UserCertificate.certManagerSpec(user, issuer);
    if (certificate == null) {
      certificates.resource(UserCertificate.certManagerCertificate(user, issuer)).create();
    } else if (!CertManagerCertificate.asksFor(certificate, wanted)) {
      var updated = new GenericKubernetesResourceBuilder(certificate).build();
      updated.setAdditionalProperty("spec", wanted);
      certificates.resource(updated).update();
    }
    return true;
  }
}
