package dev.dht.operator.cluster;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.javaoperatorsdk.operator.api.config.informer.Informer;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.processing.dependent.Matcher.Result;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependent;
import java.util.LinkedHashMap;
import java.util.Objects;

/**
 * The members file (the member list and the default ack/from of each ring), and the backup store's
 * and the restore's files if any ({@link BackupWiring}), mounted as a directory (not subPath, which
 * would freeze the files) so that the kubelet refreshes them and the nodes re-read them without a
 * restart.
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

  /**
   * The default match takes an object holding at least the desired data for current; a key dropped
   * from the data (the restore file once every node restored) must be noticed too.
   */
  @Override
  public Result<ConfigMap> match(
      ConfigMap actual, ConfigMap desired, DhtCluster primary, Context<DhtCluster> context) {
    var result = super.match(actual, desired, primary, context);
    return result.matched() && Objects.equals(actual.getData(), desired.getData())
        ? result
        : Result.computed(false, desired);
  }

  static ConfigMap build(ClusterModel model) {
    var data = new LinkedHashMap<String, String>();
    data.put(ClusterModel.MEMBERS_KEY, model.membersFile());
    data.putAll(model.backups().files());
    return new ConfigMapBuilder()
        .withMetadata(ClusterDependent.metadata(model, model.configMapName()))
        .withData(data)
        .build();
  }
}
