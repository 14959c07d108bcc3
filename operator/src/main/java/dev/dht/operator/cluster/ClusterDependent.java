package dev.dht.operator.cluster;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.CRUDKubernetesDependentResource;
import io.javaoperatorsdk.operator.processing.event.ResourceID;

/**
 * A Kubernetes object owned by a {@link DhtCluster}, built from the {@link ClusterModel} that the
 * reconciler resolved for this reconciliation. Subclasses only say how the object looks.
 */
abstract class ClusterDependent<R extends HasMetadata>
    extends CRUDKubernetesDependentResource<R, DhtCluster> {

  ClusterDependent(Class<R> type) {
    super(type);
  }

  static ClusterModel model(Context<DhtCluster> context) {
    return context
        .managedWorkflowAndDependentResourceContext()
        .getMandatory(ClusterModel.CONTEXT_KEY, ClusterModel.class);
  }

  static ObjectMeta metadata(ClusterModel model, String name) {
    return new ObjectMetaBuilder()
        .withName(name)
        .withNamespace(model.namespace())
        .withLabels(model.labels())
        .build();
  }

  /** Name of this object for the cluster; lets JOSDK find it without computing desired(). */
  abstract String nameFor(ClusterModel model);

  @Override
  protected ResourceID targetSecondaryResourceID(DhtCluster primary, Context<DhtCluster> context) {
    var model = ClusterModel.of(primary, "");
    return new ResourceID(nameFor(model), primary.getMetadata().getNamespace());
  }
}
