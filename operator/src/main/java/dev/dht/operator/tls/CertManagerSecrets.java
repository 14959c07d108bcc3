package dev.dht.operator.tls;

import dev.dht.operator.kube.Events;
import dev.dht.operator.kube.Owners;
import dev.dht.operator.kube.SecretTexts;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.net.HttpURLConnection;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The node certificate of a cluster with {@code spec.tls.issuerRef}: cert-manager issues and renews
 * it, into the Secret {@code <cluster>-node-tls}, from the {@link CertManagerCertificate} the
 * operator keeps; the operator copies the Secret's {@code ca.crt} into {@code <cluster>-ca-cert}
 * for clients, and mounts nothing until the Secret holds a usable certificate.
 *
 * <p>Adopts nothing: a Certificate or {@code <cluster>-ca-cert} not made for this cluster, or a
 * {@code <cluster>-node-tls} that existed before the cluster's Certificate (whoever made it chose
 * its key and CA), stops the cluster with {@value TlsReport#NOT_OWNED}.
 */
public final class CertManagerSecrets {
  private static final ResourceDefinitionContext CERTIFICATES =
      new ResourceDefinitionContext.Builder()
          .withGroup(IssuerRef.CERT_MANAGER_GROUP)
          .withVersion("v1")
          .withKind(CertManagerCertificate.KIND)
          .withPlural("certificates")
          .withNamespaced(true)
          .build();

  /** The cert-manager Certificates of a namespace (the API named without discovery). */
  public static NonNamespaceOperation<
          GenericKubernetesResource,
          GenericKubernetesResourceList,
          Resource<GenericKubernetesResource>>
      certificates(KubernetesClient client, String namespace) {
    return client.genericKubernetesResources(CERTIFICATES).inNamespace(namespace);
  }

  /** Brings the Certificate and the clients' trust bundle up to date; what they hold after. */
  public TlsReport reconcile(
      KubernetesClient client, TlsCluster cluster, IssuerRef issuer, Instant now) {
    var names = cluster.secretNames();
    var certificates = certificates(client, cluster.namespace());
    var secrets = client.secrets().inNamespace(cluster.namespace());
    GenericKubernetesResource certificate = certificates.withName(names.nodeTls()).get();
    Secret nodeTls = secrets.withName(names.nodeTls()).get();
    Secret caCert = secrets.withName(names.caCert()).get();

    var foreign = new ArrayList<String>();
    if (certificate != null && !OwnedSecrets.madeFor(certificate, cluster.owner())) {
      foreign.add("Certificate " + names.nodeTls());
    }
    if (nodeTls != null && !CertManagerCertificate.wrote(nodeTls, certificate)) {
      foreign.add("Secret " + names.nodeTls());
    }
    if (caCert != null && !OwnedSecrets.madeFor(caCert, cluster.owner())) {
      foreign.add("Secret " + names.caCert());
    }
    if (!foreign.isEmpty()) {
      Events.emit(
          client,
          cluster.owner(),
          List.of(
              new Events.Transition(
                  Events.WARNING, TlsReport.NOT_OWNED, "not made for this cluster: " + foreign)),
          now);
      return TlsReport.notMadeFor(cluster.namespace(), foreign);
    }

    var wanted = CertManagerCertificate.spec(cluster, issuer);
    try {
      if (certificate == null) {
        certificate =
            certificates.resource(CertManagerCertificate.desired(cluster, issuer)).create();
        Events.emit(
            client,
            cluster.owner(),
            List.of(
                new Events.Transition(
                    Events.NORMAL,
                    "CertificateRequested",
                    "asked cert-manager " + issuer.describe() + " for the node certificate")),
            now);
      } else if (!CertManagerCertificate.asksFor(certificate, wanted)) {
        var updated = new GenericKubernetesResourceBuilder(certificate).build();
        updated.setAdditionalProperty("spec", wanted);
        certificate = certificates.resource(updated).update();
      }
    } catch (KubernetesClientException e) {
      if (e.getCode() == HttpURLConnection.HTTP_NOT_FOUND) {
        return TlsReport.certManagerMissing(issuer);
      }
      throw e;
    }

    var report =
        TlsReport.issuedBy(
            issuer,
            names.nodeTls(),
            NodeTlsSecret.read(nodeTls),
            CertManagerCertificate.readiness(certificate),
            now);
    if (nodeTls != null && !report.blocked()) {
      publishTrust(client, cluster, caCert, SecretTexts.text(nodeTls, NodeTlsSecret.CA));
    }
    return report;
  }

  /** {@code <cluster>-ca-cert} with the bundle cert-manager put next to the node certificate. */
  private static void publishTrust(
      KubernetesClient client, TlsCluster cluster, Secret existing, String bundle) {
    if (existing != null && Objects.equals(SecretTexts.text(existing, CaSecret.CERT), bundle)) {
      return;
    }
    var labels = new LinkedHashMap<>(cluster.labels());
    labels.put(TlsSecrets.COMPONENT_LABEL, "tls");
    Map<String, String> data = SecretTexts.encode(Map.of(CaSecret.CERT, bundle));
    var api = client.secrets().inNamespace(cluster.namespace());
    if (existing == null) {
      api.resource(
              new SecretBuilder()
                  .withMetadata(
                      new ObjectMetaBuilder()
                          .withName(cluster.secretNames().caCert())
                          .withNamespace(cluster.namespace())
                          .withLabels(labels)
                          .withOwnerReferences(Owners.controller(cluster.owner()))
                          .build())
                  .withType("Opaque")
                  .withData(data)
                  .build())
          .create();
    } else {
      api.resource(new SecretBuilder(existing).withData(data).withStringData(null).build())
          .update();
    }
  }
}
