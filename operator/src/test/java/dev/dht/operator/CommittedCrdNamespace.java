package dev.dht.operator;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * A fresh namespace on the test apiserver with a committed CRD (crds/) applied and Established, for
 * tests of what the apiserver itself accepts, defaults and refuses. Closing deletes the namespace.
 */
public final class CommittedCrdNamespace implements AutoCloseable {
  private final KubernetesClient client;
  private final String name;

  private CommittedCrdNamespace(KubernetesClient client, String name) {
    this.client = client;
    this.name = name;
  }

  /**
   * Applies {@code crdFile} (forcing conflicts), waits until it is Established, makes the
   * namespace.
   */
  public static CommittedCrdNamespace create(Path crdFile, String namePrefix) throws IOException {
    KubernetesClient client = new KubernetesClientBuilder().build();
    try (var in = Files.newInputStream(crdFile)) {
      var crd = client.getKubernetesSerialization().unmarshal(in, CustomResourceDefinition.class);
      client.resource(crd).forceConflicts().serverSideApply();
      client
          .resource(crd)
          .waitUntilCondition(
              c ->
                  c != null
                      && c.getStatus() != null
                      && c.getStatus().getConditions().stream()
                          .anyMatch(x ->
                              "Established".equals(x.getType()) && "True".equals(x.getStatus())),
              30,
              TimeUnit.SECONDS);
    } catch (IOException | RuntimeException e) {
      client.close();
      throw e;
    }
    String name = namePrefix + UUID.randomUUID().toString().substring(0, 8);
    client
        .namespaces()
        .resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build())
        .create();
    return new CommittedCrdNamespace(client, name);
  }

  public KubernetesClient client() {
    return client;
  }

  public String name() {
    return name;
  }

  /** Creates a {@code kind} resource (API group dht.dev/v1alpha1) with {@code spec} as YAML. */
  public GenericKubernetesResource create(String kind, String resourceName, String spec) {
    String yaml =
        """
        apiVersion: dht.dev/v1alpha1
        kind: %s
        metadata: {name: %s, namespace: %s}
        spec: %s
        """
            .formatted(kind, resourceName, name, spec);
    var resource = Serialization.unmarshal(yaml, GenericKubernetesResource.class);
    return client.resource(resource).create();
  }

  @Override
  public void close() {
    client.namespaces().withName(name).delete();
    client.close();
  }
}
