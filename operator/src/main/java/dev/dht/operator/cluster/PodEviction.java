package dev.dht.operator.cluster;

import io.fabric8.kubernetes.api.model.policy.v1.EvictionBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.api.reconciler.Context;

/**
 * Takes a node pod down through the Eviction API rather than a delete, so that the disruption
 * budget arbitrates between the operator and anyone else taking pods down (a {@code kubectl
 * drain}). A pod that is not Ready, Pending or already being deleted may always be evicted ({@code
 * unhealthyPodEvictionPolicy: AlwaysAllow}, and the Eviction API ignores budgets for Pending pods):
 * only a Ready pod can be refused, while another is down.
 */
final class PodEviction {
  /** What came of an eviction. */
  sealed interface Outcome {}

  /** The pod goes (the StatefulSet recreates it), or was gone already. */
  record Evicted(boolean wasGone) implements Outcome {}

  /** The disruption budget allows no eviction now; {@code budget} says where it stands. */
  record Refused(String budget) implements Outcome {}

  /** The eviction failed otherwise: {@code why} is the API's answer. */
  record Failed(String why) implements Outcome {}

  private PodEviction() {}

  static Outcome evict(Context<DhtCluster> context, String namespace, String name) {
    boolean evicted;
    try {
      evicted =
          context
              .getClient()
              .pods()
              .inNamespace(namespace)
              .withName(name)
              .evict(
                  new EvictionBuilder()
                      .withNewMetadata()
                      .withName(name)
                      .withNamespace(namespace)
                      .endMetadata()
                      .build());
    } catch (KubernetesClientException e) {
      if (e.getCode() == 404) {
        return new Evicted(true);
      }
      return new Failed(e.getStatus() != null ? e.getStatus().getMessage() : e.getMessage());
    }
    if (!evicted) {
      return new Refused(
          DisruptionBudgetDependent.why(context.getSecondaryResource(PodDisruptionBudget.class)));
    }
    return new Evicted(false);
  }

  /** Why the pod stays: null if it goes. */
  static String refusal(Outcome outcome) {
    return switch (outcome) {
      case Evicted e -> null;
      case Refused r -> "the disruption budget allows no eviction now: " + r.budget();
      case Failed f -> "the eviction failed: " + f.why();
    };
  }
}
