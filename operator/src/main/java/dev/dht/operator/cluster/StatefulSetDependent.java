package dev.dht.operator.cluster;

import dev.dht.operator.rolling.PodRevision;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
import io.javaoperatorsdk.operator.api.config.informer.Informer;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependent;
import java.util.Map;

/**
 * The nodes. Pods start in parallel (members find each other through the peer Service) and keep
 * their volume across restarts. Update strategy OnDelete: the StatefulSet controller never restarts
 * a pod for a new template; the operator's roller does, for pods of another revision.
 */
@KubernetesDependent(informer = @Informer(labelSelector = ClusterModel.MANAGED_BY_SELECTOR))
public class StatefulSetDependent extends ClusterDependent<StatefulSet> {

  public StatefulSetDependent() {
    super(StatefulSet.class);
  }

  /**
   * The StatefulSet of the model; one that exists keeps its claim template, which cannot change
   * ({@link ClusterVolumes} grows the claims themselves).
   */
  @Override
  protected StatefulSet desired(DhtCluster primary, Context<DhtCluster> context) {
    var model = model(context);
    return build(
        model,
        context
            .getSecondaryResource(StatefulSet.class)
            .map(StatefulSetDependent::claimSize)
            .orElseGet(() -> new Quantity(model.storageSize())));
  }

  @Override
  String nameFor(ClusterModel model) {
    return model.statefulSetName();
  }

  static StatefulSet build(ClusterModel model) {
    return build(model, new Quantity(model.storageSize()));
  }

  private static StatefulSet build(ClusterModel model, Quantity claimSize) {
    return new StatefulSetBuilder()
        .withMetadata(ClusterDependent.metadata(model, model.statefulSetName()))
        .withNewSpec()
        .withReplicas(model.pods())
        .withServiceName(model.peerServiceName())
        .withPodManagementPolicy("Parallel")
        .withNewSelector()
        .withMatchLabels(model.selectorLabels())
        .endSelector()
        // The operator restarts outdated pods itself (rolling package): one at a time, only when
        // every other node is Ready and caught up and a quorum survives one more down.
        .withNewUpdateStrategy()
        .withType("OnDelete")
        .endUpdateStrategy()
        // Data outlives the cluster object and scale changes: deleting it must be a human decision.
        .withNewPersistentVolumeClaimRetentionPolicy()
        .withWhenDeleted("Retain")
        .withWhenScaled("Retain")
        .endPersistentVolumeClaimRetentionPolicy()
        .withTemplate(NodePodTemplate.annotated(model))
        .withVolumeClaimTemplates(dataClaim(model, claimSize))
        .endSpec()
        .build();
  }

  /** The revision a StatefulSet's pod template carries; null if none. */
  static PodRevision revision(StatefulSet sts) {
    var annotations = sts.getSpec().getTemplate().getMetadata().getAnnotations();
    return annotations == null
        ? null
        : PodRevision.parse(annotations.get(ClusterModel.REVISION_ANNOTATION));
  }

  /** The size the StatefulSet's data claim template asks for; null if it has none. */
  static Quantity claimSize(StatefulSet sts) {
    return sts.getSpec().getVolumeClaimTemplates().stream()
        .filter(c -> NodePodTemplate.DATA_VOLUME.equals(c.getMetadata().getName()))
        .map(c -> c.getSpec().getResources().getRequests().get("storage"))
        .findFirst()
        .orElse(null);
  }

  private static PersistentVolumeClaim dataClaim(ClusterModel model, Quantity size) {
    return new PersistentVolumeClaimBuilder()
        .withNewMetadata()
        .withName(NodePodTemplate.DATA_VOLUME)
        .withLabels(model.selectorLabels())
        .endMetadata()
        .withNewSpec()
        .withAccessModes("ReadWriteOnce")
        .withStorageClassName(model.storageClassName())
        .withNewResources()
        .withRequests(Map.of("storage", size))
        .endResources()
        .endSpec()
        .build();
  }
}
