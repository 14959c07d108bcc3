package dev.dht.operator.cluster;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.javaoperatorsdk.operator.api.config.informer.Informer;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependent;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The shared secret that authenticates node-to-node requests. Generated once: desired() carries the
 * existing value over, and JOSDK creates with SSA only if absent, so a cache miss cannot silently
 * replace it with a fresh random value.
 */
@KubernetesDependent(informer = @Informer(labelSelector = ClusterModel.MANAGED_BY_SELECTOR))
public class SecretDependent extends ClusterDependent<Secret> {

  private static final SecureRandom RANDOM = new SecureRandom();

  public SecretDependent() {
    super(Secret.class);
  }

  @Override
  protected Secret desired(DhtCluster primary, Context<DhtCluster> context) {
    return build(
        model(context), getSecondaryResource(primary, context), SecretDependent::newSecret);
  }

  @Override
  String nameFor(ClusterModel model) {
    return model.secretName();
  }

  /** The Secret, keeping the current value when there is one, else a new one from generator. */
  static Secret build(ClusterModel model, Optional<Secret> existing, Supplier<String> generator) {
    String encoded =
        existing
            .map(Secret::getData)
            .map(data -> data.get(ClusterModel.SECRET_KEY))
            .filter(value -> !value.isBlank())
            .orElseGet(() -> base64(generator.get()));
    return new SecretBuilder()
        .withMetadata(ClusterDependent.metadata(model, model.secretName()))
        .withType("Opaque")
        .withData(Map.of(ClusterModel.SECRET_KEY, encoded))
        .build();
  }

  static String newSecret() {
    byte[] bytes = new byte[32];
    RANDOM.nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  private static String base64(String value) {
    return Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8));
  }
}
