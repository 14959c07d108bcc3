package dev.dht.operator.cluster;

import dev.dht.operator.kube.Conditions;
import dev.dht.operator.volumes.VolumeExpansion;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimCondition;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Grows the node volumes to spec.storage.size ({@link VolumeExpansion}): asks each bound claim of
 * the cluster's members for the size (the apiserver refuses it unless the claim's StorageClass
 * allows expansion). The StatefulSet keeps the claim template it was created with (immutable): a
 * claim it creates later is asked the size once bound, like the others.
 */
final class ClusterVolumes {
  private ClusterVolumes() {}

  static VolumeExpansion.Outcome expand(Context<DhtCluster> context, ClusterModel model) {
    var wanted = new Quantity(model.storageSize());
    var pvcs = context.getClient().persistentVolumeClaims().inNamespace(model.namespace());
    var claims =
        ClusterActions.dataClaims(context, model).values().stream()
            // a member's: not one a scale-down detached (grown when a scale-up reuses it), not one
            // being deleted (a replaced node's)
            .filter(
                c -> !"true".equals(c.getMetadata().getLabels().get(ClusterActions.DETACHED_LABEL)))
            .filter(c -> c.getMetadata().getDeletionTimestamp() == null)
            .map(ClusterVolumes::claim)
            .toList();
    var asked = VolumeExpansion.toExpand(wanted, claims);
    Map<String, String> refused = new LinkedHashMap<>();
    String patch =
        "{\"spec\":{\"resources\":{\"requests\":{\"storage\":\"" + model.storageSize() + "\"}}}}";
    for (String claim : asked) {
      try {
        pvcs.withName(claim).patch(PatchContext.of(PatchType.JSON_MERGE), patch);
      } catch (KubernetesClientException e) {
        if (e.getCode() == 404) {
          continue; // deleted meanwhile (a replacement): its successor is asked next time
        }
        if (e.getCode() != 403 && e.getCode() != 422) {
          throw e;
        }
        refused.put(claim, e.getStatus() == null ? e.getMessage() : e.getStatus().getMessage());
      }
    }
    return VolumeExpansion.after(
        wanted,
        claims,
        asked,
        refused,
        context
            .getSecondaryResource(StatefulSet.class)
            .map(StatefulSetDependent::claimSize)
            .orElse(null));
  }

  private static VolumeExpansion.Claim claim(PersistentVolumeClaim pvc) {
    var requests =
        pvc.getSpec().getResources() == null ? null : pvc.getSpec().getResources().getRequests();
    var status = pvc.getStatus();
    var capacity =
        status == null || status.getCapacity() == null ? null : status.getCapacity().get("storage");
    Set<String> conditions =
        status == null || status.getConditions() == null
            ? Set.of()
            : status.getConditions().stream()
                .map(PersistentVolumeClaimCondition::getType)
                .collect(Collectors.toSet());
    return new VolumeExpansion.Claim(
        pvc.getMetadata().getName(),
        requests == null ? null : requests.get("storage"),
        capacity,
        status != null && "Bound".equals(status.getPhase()),
        conditions);
  }

  /** status.storage and the condition; {@code outcome} null: not looked at (both kept). */
  static void report(
      DhtClusterStatus status,
      DhtCluster cluster,
      ClusterModel model,
      VolumeExpansion.Outcome outcome,
      Instant now) {
    var previous = Optional.ofNullable(cluster.getStatus());
    var before = previous.map(DhtClusterStatus::getConditions).orElse(List.of());
    var conditions = new ArrayList<>(status.getConditions());
    if (outcome == null) {
      status.setStorage(previous.map(DhtClusterStatus::getStorage).orElse(null));
      Conditions.find(before, VolumeExpansion.CONDITION).ifPresent(conditions::add);
    } else {
      status.setStorage(outcome.status());
      var verdict = outcome.condition();
      if (verdict != null) {
        conditions.add(
            Conditions.next(
                before,
                VolumeExpansion.CONDITION,
                verdict.atSize(),
                verdict.reason(),
                verdict.message(),
                model.generation(),
                now));
      }
    }
    status.setConditions(conditions);
  }
}
