package dev.dht.operator.cluster;

import dev.dht.operator.networking.NetworkPolicySpec;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.dependent.DependentResource;
import io.javaoperatorsdk.operator.processing.dependent.workflow.Condition;

/**
 * Reconcile precondition of {@link NodeNetworkPolicyDependent}: the policy exists unless {@code
 * spec.networkPolicy.enabled} is false. When it does not hold, JOSDK deletes the policy it made.
 */
public class NetworkPolicyWanted implements Condition<NetworkPolicy, DhtCluster> {
  @Override
  public boolean isMet(
      DependentResource<NetworkPolicy, DhtCluster> dependentResource,
      DhtCluster primary,
      Context<DhtCluster> context) {
    return NetworkPolicySpec.wanted(
        primary.getSpec() == null ? null : primary.getSpec().getNetworkPolicy());
  }
}
