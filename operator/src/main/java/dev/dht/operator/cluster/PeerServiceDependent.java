package dev.dht.operator.cluster;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.ServicePortBuilder;
import io.javaoperatorsdk.operator.api.config.informer.Informer;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependent;
import java.util.List;

/**
 * Headless Service giving each node a stable DNS name ({@code <pod>.<name>-peers.<ns>.svc}).
 * Not-ready pods are published too: peers must find each other before they are ready.
 */
@KubernetesDependent(informer = @Informer(labelSelector = ClusterModel.MANAGED_BY_SELECTOR))
public class PeerServiceDependent extends ClusterDependent<Service> {

  public PeerServiceDependent() {
    super(Service.class);
  }

  @Override
  protected Service desired(DhtCluster primary, Context<DhtCluster> context) {
    return build(model(context));
  }

  @Override
  String nameFor(ClusterModel model) {
    return model.peerServiceName();
  }

  static Service build(ClusterModel model) {
    return new ServiceBuilder()
        .withMetadata(ClusterDependent.metadata(model, model.peerServiceName()))
        .withNewSpec()
        .withClusterIP("None")
        .withPublishNotReadyAddresses(true)
        .withSelector(model.selectorLabels())
        .withPorts(ports(model))
        .endSpec()
        .build();
  }

  /** The node ports by name: a headless Service's DNS names the pods, whatever the port. */
  private static List<ServicePort> ports(ClusterModel model) {
    return model.ports().byName().entrySet().stream()
        .map(port ->
            new ServicePortBuilder()
                .withName(port.getKey())
                .withPort(port.getValue())
                .withTargetPort(new IntOrString(port.getKey()))
                .withProtocol("TCP")
                .build())
        .toList();
  }
}
