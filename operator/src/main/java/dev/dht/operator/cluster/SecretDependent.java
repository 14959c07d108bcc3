package dev.dht.operator.cluster;

import dev.dht.operator.kube.Owners;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.api.config.informer.Informer;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependent;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependentResource;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.SecondaryToPrimaryMapper;
import io.javaoperatorsdk.operator.processing.event.source.informer.Mappers;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The shared secret that authenticates node-to-node requests. Read-only in the workflow (it gives
 * the reconciler its informer): the reconciler creates it once, for a new cluster ({@link
 * #ensure}), and it is never updated nor regenerated: a missing Secret of a running cluster is
 * reported (Degraded, SecretMissing), since nodes restarted with a new value would be refused by
 * their peers. A Secret of that name that the cluster does not control is never adopted (Degraded,
 * SecretNotOwned): creating a DhtCluster must not mount someone's Secret into pods that run an
 * image of the creator's choosing. Its rotation is the user's ({@code also-accepted} key, README).
 */
@KubernetesDependent(informer = @Informer(labelSelector = ClusterModel.MANAGED_BY_SELECTOR))
public class SecretDependent extends KubernetesDependentResource<Secret, DhtCluster> {

  private static final SecureRandom RANDOM = new SecureRandom();

  public SecretDependent() {
    super(Secret.class);
  }

  /**
   * The cluster's Secret: created first for a new cluster; adopted only if it has an owner
   * reference to this very cluster (its UID), as every Secret the operator made has had, from the
   * first version on. The informer's cache may lag behind a Secret created a moment ago: an absent
   * one is looked up before it is called missing.
   */
  static SecretState ensure(DhtCluster cluster, Context<DhtCluster> context, ClusterModel model) {
    var secrets = context.getClient().secrets().inNamespace(model.namespace());
    var found =
        context
            .getSecondaryResource(Secret.class)
            .or(() -> Optional.ofNullable(secrets.withName(model.secretName()).get()));
    if (found.isPresent()) {
      return stateOf(found.get(), cluster);
    }
    if (!isNew(cluster, context.getSecondaryResource(StatefulSet.class).isPresent())) {
      return SecretState.MISSING;
    }
    var secret = build(model, Optional.empty(), SecretDependent::newSecret);
    secret.getMetadata().setOwnerReferences(List.of(Owners.controller(cluster)));
    try {
      secrets.resource(secret).create();
    } catch (KubernetesClientException e) {
      if (e.getCode() != 409) {
        throw e;
      }
      // made meanwhile, by whom the owner reference says
      var raced = secrets.withName(model.secretName()).get();
      return raced == null ? SecretState.MISSING : stateOf(raced, cluster);
    }
    return SecretState.OURS;
  }

  /** Whether {@code secret} is this cluster's: owned by it, by its UID. Pure. */
  static SecretState stateOf(Secret secret, DhtCluster cluster) {
    return Owners.isOwnedBy(secret, cluster) ? SecretState.OURS : SecretState.NOT_OURS;
  }

  @Override
  protected ResourceID targetSecondaryResourceID(DhtCluster primary, Context<DhtCluster> context) {
    return new ResourceID(
        ClusterModel.of(primary, "").secretName(), primary.getMetadata().getNamespace());
  }

  /** A read-only dependent maps its events itself: to the cluster that owns the Secret. */
  @Override
  protected Optional<SecondaryToPrimaryMapper<Secret>> getSecondaryToPrimaryMapper(
      EventSourceContext<DhtCluster> context) {
    return Optional.of(Mappers.fromOwnerReferences(DhtCluster.class));
  }

  /**
   * A cluster whose spec was never applied and that has no StatefulSet: nothing runs with any
   * secret, so one can be made. A cluster refused for someone else's Secret stays new (its
   * observedGeneration is not set), and gets its own once that Secret is gone.
   */
  static boolean isNew(DhtCluster cluster, boolean hasStatefulSet) {
    var status = cluster.getStatus();
    boolean neverApplied =
        status == null || status.getMembership() == null || status.getObservedGeneration() == null;
    return neverApplied && !hasStatefulSet;
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
