package dev.dht.operator.cluster;

import dev.dht.operator.kube.Events;
import dev.dht.operator.replacing.NodeReplacement;
import dev.dht.operator.replacing.PodAndClaim;
import dev.dht.operator.replacing.ReplacementPlan;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import java.time.Instant;

/**
 * The I/O of a node's replacement on a new volume ({@link ReplacementPlan}): reads the annotation,
 * the replacement the status records, the pod and its claim; carries out the decision: evicts the
 * pod (through the budget, {@link PodEviction}), then deletes its claim, removes the annotation
 * once done, posts the events.
 */
final class ReplacementActions {
  private ReplacementActions() {}

  /**
   * Decides from what is there now and acts on it; the decision, as carried out, for the status.
   */
  static ReplacementPlan.Decision replace(
      Context<DhtCluster> context, DhtCluster cluster, ClusterModel model, Instant now) {
    String requested = requested(cluster);
    NodeReplacement recorded =
        cluster.getStatus() == null ? null : cluster.getStatus().getReplacement();
    String pod = ReplacementPlan.subject(model.name(), requested, recorded);
    var observed = pod == null ? PodAndClaim.NONE : observe(context, model.namespace(), pod);
    var decision =
        ReplacementPlan.next(
            new ReplacementPlan.Input(
                model.name(), requested, recorded, model.membership(), observed, now));
    return carryOut(context, cluster, model, decision, now);
  }

  /** The annotation's value, trimmed; null if there is none. */
  private static String requested(DhtCluster cluster) {
    var annotations = cluster.getMetadata().getAnnotations();
    String value = annotations == null ? null : annotations.get(ReplacementPlan.ANNOTATION);
    return value == null ? null : value.strip();
  }

  private static PodAndClaim observe(Context<DhtCluster> context, String namespace, String pod) {
    var client = context.getClient();
    var running = client.pods().inNamespace(namespace).withName(pod).get();
    var claim =
        client
            .persistentVolumeClaims()
            .inNamespace(namespace)
            .withName(ReplacementPlan.claim(pod))
            .get();
    return new PodAndClaim(
        uid(running),
        deleting(running),
        running != null && Pods.ready(running),
        uid(claim),
        deleting(claim));
  }

  private static String uid(HasMetadata object) {
    return object == null ? null : object.getMetadata().getUid();
  }

  private static boolean deleting(HasMetadata object) {
    return object != null && object.getMetadata().getDeletionTimestamp() != null;
  }

  /**
   * The pod first, the claim only once the pod's eviction went through: a budget that refuses
   * (another pod is down) leaves both as they are, rather than a claim that vanishes whenever the
   * pod next restarts.
   */
  private static ReplacementPlan.Decision carryOut(
      Context<DhtCluster> context,
      DhtCluster cluster,
      ClusterModel model,
      ReplacementPlan.Decision decision,
      Instant now) {
    if (decision.evictPod()) {
      String pod = decision.current().getPod();
      String refusal = PodEviction.refusal(PodEviction.evict(context, model.namespace(), pod));
      if (refusal != null) {
        return decision.evictionRefused(refusal);
      }
    }
    if (decision.deleteClaim()) {
      deleteClaim(context, model.namespace(), ReplacementPlan.claim(decision.current().getPod()));
    }
    if (decision.removeAnnotation()) {
      ClusterActions.removeAnnotation(context, cluster, ReplacementPlan.ANNOTATION);
    }
    Events.emit(context.getClient(), cluster, decision.events(), now);
    return decision;
  }

  /**
   * Deletes the claim without waiting: it goes once its pod is gone (pvc-protection). A failure is
   * left for the next reconciliation, which sees the old claim still there and deletes it again.
   */
  private static void deleteClaim(Context<DhtCluster> context, String namespace, String claim) {
    try {
      context.getClient().persistentVolumeClaims().inNamespace(namespace).withName(claim).delete();
    } catch (RuntimeException e) {
      // deleted on a later reconciliation
    }
  }
}
