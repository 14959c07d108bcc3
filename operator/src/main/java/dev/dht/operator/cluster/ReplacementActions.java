package dev.dht.operator.cluster;

import dev.dht.operator.kube.Events;
import dev.dht.operator.replacing.NodeReplacement;
import dev.dht.operator.replacing.PodAndClaim;
import dev.dht.operator.replacing.ReplacementPlan;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import java.time.Instant;
import java.util.function.Predicate;

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
      Context<DhtCluster> context,
      DhtCluster cluster,
      ClusterModel model,
      Predicate<String> serving,
      Instant now) {
    var decision = decide(context, cluster, model, serving, now);
    if (movesOn(cluster, decision)) {
      // A step (a start deletes a volume; done posts an event) is decided on the apiserver's copy
      // of the cluster: the cache may not show yet the status the previous reconciliation wrote
      // (JOSDK does not cache its own status writes), and a start taken again would take a claim
      // recreated meanwhile.
      var fresh = context.getClient().resource(cluster).get();
      if (fresh != null) {
        decision = decide(context, fresh, model, serving, now);
      }
    }
    return carryOut(context, cluster, model, decision, now);
  }

  /** {@code serving}: whether a pod's node reports that it serves reads. */
  private static ReplacementPlan.Decision decide(
      Context<DhtCluster> context,
      DhtCluster cluster,
      ClusterModel model,
      Predicate<String> serving,
      Instant now) {
    String requested = requested(cluster);
    NodeReplacement recorded = recorded(cluster);
    String pod = ReplacementPlan.subject(model.name(), requested, recorded);
    var observed =
        pod == null
            ? PodAndClaim.NONE
            : observe(context, model.namespace(), pod, serving.test(pod));
    return ReplacementPlan.next(
        new ReplacementPlan.Input(
            model.name(), requested, recorded, model.membership(), observed, now));
  }

  private static NodeReplacement recorded(DhtCluster cluster) {
    return cluster.getStatus() == null ? null : cluster.getStatus().getReplacement();
  }

  /** The decision moves the replacement {@code cluster}'s status records to another phase. */
  private static boolean movesOn(DhtCluster cluster, ReplacementPlan.Decision decision) {
    return phase(recorded(cluster)) != phase(decision.current());
  }

  private static NodeReplacement.Phase phase(NodeReplacement replacement) {
    return replacement == null ? null : replacement.getPhase();
  }

  /** The annotation's value, trimmed; null if there is none. */
  private static String requested(DhtCluster cluster) {
    var annotations = cluster.getMetadata().getAnnotations();
    String value = annotations == null ? null : annotations.get(ReplacementPlan.ANNOTATION);
    return value == null ? null : value.strip();
  }

  private static PodAndClaim observe(
      Context<DhtCluster> context, String namespace, String pod, boolean serving) {
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
        running != null && Pods.ready(running) && serving,
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
