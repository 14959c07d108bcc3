package dev.dht.operator.cluster;

import dev.dht.operator.networking.AdminCallers;
import dev.dht.operator.networking.NetworkPolicySpec;
import dev.dht.operator.networking.NodeNetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.javaoperatorsdk.operator.api.config.informer.Informer;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependent;

/**
 * The NetworkPolicy of the node pods ({@link NodeNetworkPolicy}), named like the cluster. Unless
 * {@code spec.networkPolicy.enabled} is false ({@link NetworkPolicyWanted}): then the workflow
 * deletes it.
 *
 * <p>Who may reach the admin port comes from the operator's settings, which JOSDK cannot hand to a
 * dependent it instantiates itself: {@link NetworkPolicyDependentFactory} creates this one with
 * them. Instantiated by JOSDK (no factory: tests that do not look at the policy), it admits no
 * operator pod and no monitoring namespace.
 */
@KubernetesDependent(informer = @Informer(labelSelector = ClusterModel.MANAGED_BY_SELECTOR))
public class NodeNetworkPolicyDependent extends ClusterDependent<NetworkPolicy> {
  private final AdminCallers adminCallers;

  public NodeNetworkPolicyDependent() {
    this(AdminCallers.NONE);
  }

  NodeNetworkPolicyDependent(AdminCallers adminCallers) {
    super(NetworkPolicy.class);
    this.adminCallers = adminCallers;
  }

  @Override
  protected NetworkPolicy desired(DhtCluster primary, Context<DhtCluster> context) {
    var spec = primary.getSpec() == null ? null : primary.getSpec().getNetworkPolicy();
    return build(model(context), spec, adminCallers);
  }

  @Override
  String nameFor(ClusterModel model) {
    return model.name();
  }

  static NetworkPolicy build(ClusterModel model, NetworkPolicySpec spec, AdminCallers admin) {
    var ports = model.ports();
    return NodeNetworkPolicy.desired(
        ClusterDependent.metadata(model, model.name()),
        new NodeNetworkPolicy.Nodes(
            model.namespace(),
            model.selectorLabels(),
            new NodeNetworkPolicy.Ports(ports.client(), ports.peer(), ports.admin())),
        spec,
        admin);
  }
}
