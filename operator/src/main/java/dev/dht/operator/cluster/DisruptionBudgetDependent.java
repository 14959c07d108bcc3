package dev.dht.operator.cluster;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import io.javaoperatorsdk.operator.api.config.informer.Informer;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependent;
import java.util.Optional;

/**
 * Limits voluntary evictions (drains) so that every key keeps a quorum at the default consistency.
 *
 * <p>A key lives on {@code from} nodes and a default request needs {@code ack} of them. Any node
 * may hold any key (rendezvous hashing), so with {@code u} nodes down some key may lose {@code u}
 * of its replicas; it stays readable and writable while {@code from - u >= ack}. Hence {@code
 * maxUnavailable = from - ack}: 1 for 3 nodes at 2/3, 2 for 5 at 3/5, and the classic majority
 * formula {@code N - (N/2 + 1)} when from = N. It is 0 when ack = from, including a single-replica
 * cluster (1/1): such a cluster has no redundancy, so an eviction is an outage and a drain must be
 * a deliberate decision (delete the budget or the pod) rather than a side effect.
 *
 * <p>The roller restarts pods through evictions too, so this budget arbitrates between it and a
 * drain. It never asks for more than the budget allows by itself: it restarts a Ready pod only when
 * every pod is Ready and {@code from - 1 >= ack} (so one disruption is allowed), and a pod that is
 * not Ready may always be evicted ({@code AlwaysAllow}), even at 0. A refusal therefore means that
 * someone else took the disruption first, or that the budget's status lags behind.
 */
@KubernetesDependent(informer = @Informer(labelSelector = ClusterModel.MANAGED_BY_SELECTOR))
public class DisruptionBudgetDependent extends ClusterDependent<PodDisruptionBudget> {

  public DisruptionBudgetDependent() {
    super(PodDisruptionBudget.class);
  }

  @Override
  protected PodDisruptionBudget desired(DhtCluster primary, Context<DhtCluster> context) {
    return build(model(context));
  }

  @Override
  String nameFor(ClusterModel model) {
    return model.disruptionBudgetName();
  }

  /**
   * From the default ack/from in force and, during a change of them, the target ones: requests meet
   * both rings then, so the budget is the smaller.
   */
  static int maxUnavailable(ClusterModel model) {
    var strictest = model.membership().strictest();
    return Math.max(0, strictest.from() - strictest.ack());
  }

  /** Why the budget (as last seen) refuses an eviction, for the roll's status. */
  static String why(Optional<PodDisruptionBudget> seen) {
    if (seen.isEmpty() || seen.get().getStatus() == null) {
      return "the budget is not observed yet";
    }
    var budget = seen.get();
    var status = budget.getStatus();
    String name = budget.getMetadata().getName();
    if (status.getObservedGeneration() == null
        || status.getObservedGeneration() < budget.getMetadata().getGeneration()) {
      return name + " is not yet updated by the disruption controller";
    }
    return name
        + ": "
        + status.getCurrentHealthy()
        + " of "
        + status.getExpectedPods()
        + " pods healthy, "
        + status.getDesiredHealthy()
        + " needed, "
        + status.getDisruptionsAllowed()
        + " disruptions allowed";
  }

  static PodDisruptionBudget build(ClusterModel model) {
    return new PodDisruptionBudgetBuilder()
        .withMetadata(ClusterDependent.metadata(model, model.disruptionBudgetName()))
        .withNewSpec()
        .withMaxUnavailable(new IntOrString(maxUnavailable(model)))
        // a pod that is not Ready serves nothing: evicting it (e.g. to drain its host) must not
        // wait for it to become Ready first
        .withUnhealthyPodEvictionPolicy("AlwaysAllow")
        .withNewSelector()
        .withMatchLabels(model.selectorLabels())
        .endSelector()
        .endSpec()
        .build();
  }
}
