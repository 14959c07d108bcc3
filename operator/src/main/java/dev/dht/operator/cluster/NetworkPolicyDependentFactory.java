package dev.dht.operator.cluster;

import dev.dht.operator.networking.AdminCallers;
import io.javaoperatorsdk.operator.api.config.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.config.dependent.DependentResourceSpec;
import io.javaoperatorsdk.operator.api.reconciler.dependent.DependentResource;
import io.javaoperatorsdk.operator.api.reconciler.dependent.DependentResourceFactory;

/**
 * Creates the workflow's dependents as JOSDK would, except {@link NodeNetworkPolicyDependent},
 * which gets the operator's {@link AdminCallers}: JOSDK instantiates dependents by their class, so
 * this is how an operator setting reaches one. Install it on the operator's configuration service.
 */
@SuppressWarnings({"rawtypes", "unchecked"})
public final class NetworkPolicyDependentFactory
    implements DependentResourceFactory<ControllerConfiguration<?>, DependentResourceSpec> {
  private final AdminCallers adminCallers;

  public NetworkPolicyDependentFactory(AdminCallers adminCallers) {
    this.adminCallers = adminCallers;
  }

  @Override
  public DependentResource createFrom(
      DependentResourceSpec spec, ControllerConfiguration<?> configuration) {
    if (spec.getDependentResourceClass() != NodeNetworkPolicyDependent.class) {
      return DependentResourceFactory.super.createFrom(spec, configuration);
    }
    var dependent = new NodeNetworkPolicyDependent(adminCallers);
    configure(dependent, spec, configuration);
    return dependent;
  }
}
