package dev.dht.operator.cluster;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.javaoperatorsdk.operator.api.config.informer.Informer;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependent;
import java.util.Map;

/**
 * The members file (the member list and the default ack/from of each ring), mounted as a directory
 * (not subPath, which would freeze the files) so that the kubelet refreshes them and the nodes
 * re-read them without a restart.
 */
@KubernetesDependent(informer = @Informer(labelSelector = ClusterModel.MANAGED_BY_SELECTOR))
public class ConfigMapDependent extends ClusterDependent<ConfigMap> {

  public ConfigMapDependent() {
    super(ConfigMap.class);
  }

  @Override
  protected ConfigMap desired(DhtCluster primary, Context<DhtCluster> context) {
    return build(model(context));
  }

  @Override
  String nameFor(ClusterModel model) {
    return model.configMapName();
  }

  static ConfigMap build(ClusterModel model) {
    return new ConfigMapBuilder()
        .withMetadata(ClusterDependent.metadata(model, model.configMapName()))
        .withData(Map.of(ClusterModel.MEMBERS_KEY, model.membersFile()))
        .build();
  }
}
