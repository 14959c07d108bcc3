package dev.dht.operator.cluster;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.javaoperatorsdk.operator.api.config.informer.Informer;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependent;

/** The Service clients use: any ready node coordinates any request. */
@KubernetesDependent(informer = @Informer(labelSelector = ClusterModel.MANAGED_BY_SELECTOR))
public class ClientServiceDependent extends ClusterDependent<Service> {

  public ClientServiceDependent() {
    super(Service.class);
  }

  @Override
  protected Service desired(DhtCluster primary, Context<DhtCluster> context) {
    return build(model(context));
  }

  @Override
  String nameFor(ClusterModel model) {
    return model.clientServiceName();
  }

  static Service build(ClusterModel model) {
    return new ServiceBuilder()
        .withMetadata(ClusterDependent.metadata(model, model.clientServiceName()))
        .withNewSpec()
        .withType("ClusterIP")
        .withSelector(model.selectorLabels())
        .addNewPort()
        .withName("http")
        .withPort(model.ports().client())
        .withTargetPort(new IntOrString("http"))
        .withProtocol("TCP")
        .endPort()
        .endSpec()
        .build();
  }
}
