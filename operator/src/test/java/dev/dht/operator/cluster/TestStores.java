package dev.dht.operator.cluster;

import dev.dht.node.backup.SeaweedS3;
import dev.dht.operator.backup.ObjectStoreSpec;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Map;

/**
 * The backup tests' object store as a DhtCluster names it: a test's SeaweedFS, with its keys in the
 * Secret {@value #SECRET} of the test's namespace.
 */
final class TestStores {
  static final String SECRET = "store-keys";

  private TestStores() {}

  /** Writes {@code store}'s keys into the Secret {@value #SECRET} of {@code ns}. */
  static void createCredentials(KubernetesClient client, String ns, SeaweedS3 store) {
    client
        .resource(
            new SecretBuilder()
                .withNewMetadata()
                .withName(SECRET)
                .withNamespace(ns)
                .endMetadata()
                .withStringData(
                    Map.of(
                        "access-key-id", store.accessKey(),
                        "secret-access-key", store.secretKey()))
                .build())
        .create();
  }

  /** {@code store} with those credentials, under {@code path} (null: the cluster's default). */
  static ObjectStoreSpec spec(SeaweedS3 store, String path) {
    return ObjectStoreSpec.builder()
        .endpoint(store.endpoint().toString())
        .bucket(store.bucket())
        .path(path)
        .credentialsSecret(SECRET)
        .build();
  }
}
