package dev.dht.operator;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Takes over our CRDs on the shared apiserver before JOSDK's test extension applies them. The
 * extension applies without forcing conflicts, and the e2e suite force-applies the same files under
 * its own field manager ({@code kubectl apply --server-side}, whose serialisation differs): after
 * an e2e run the extension's apply would fail with a 409 on {@code .spec.versions}.
 */
public final class TestCrds {
  private TestCrds() {}

  /** Server-side applies the generated CRDs of these resources, forcing conflicts. */
  @SafeVarargs
  public static void forceApply(Class<? extends HasMetadata>... resources) {
    try (var client = new KubernetesClientBuilder().build()) {
      for (var resource : resources) {
        var file =
            Path.of("target/classes/META-INF/fabric8")
                .resolve(HasMetadata.getFullResourceName(resource) + "-v1.yml");
        try (var in = Files.newInputStream(file)) {
          var crd =
              client.getKubernetesSerialization().unmarshal(in, CustomResourceDefinition.class);
          client.resource(crd).forceConflicts().serverSideApply();
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    }
  }
}
