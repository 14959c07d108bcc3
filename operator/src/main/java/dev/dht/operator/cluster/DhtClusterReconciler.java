package dev.dht.operator.cluster;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.ErrorStatusUpdateControl;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.api.reconciler.Workflow;
import io.javaoperatorsdk.operator.api.reconciler.dependent.Dependent;
import java.time.Instant;
import java.util.List;

/**
 * Reconciles a {@link DhtCluster}: resolve the model, apply the owned objects (unless paused), then
 * report what was observed in the status. The workflow is invoked explicitly so that the pause
 * annotation can skip it while the status keeps being written.
 *
 * <p>Not generation-aware: the pause annotation changes metadata only, which does not bump the
 * generation but must still trigger a reconciliation.
 */
@ControllerConfiguration(name = DhtClusterReconciler.NAME, generationAwareEventProcessing = false)
@Workflow(
    explicitInvocation = true,
    dependents = {
      @Dependent(name = "config", type = ConfigMapDependent.class),
      @Dependent(name = "secret", type = SecretDependent.class),
      @Dependent(name = "peers", type = PeerServiceDependent.class),
      @Dependent(name = "client", type = ClientServiceDependent.class),
      @Dependent(name = "pdb", type = DisruptionBudgetDependent.class),
      @Dependent(
          name = "nodes",
          type = StatefulSetDependent.class,
          dependsOn = {"config", "secret", "peers"})
    })
public class DhtClusterReconciler implements Reconciler<DhtCluster> {
  public static final String NAME = "dhtcluster";

  private final String defaultImage;

  public DhtClusterReconciler(String defaultImage) {
    this.defaultImage = defaultImage;
  }

  @Override
  public UpdateControl<DhtCluster> reconcile(DhtCluster cluster, Context<DhtCluster> context) {
    var model = ClusterModel.of(cluster, defaultImage);
    if (!cluster.isPaused()) {
      var workflow = context.managedWorkflowAndDependentResourceContext();
      workflow.put(ClusterModel.CONTEXT_KEY, model);
      workflow.reconcileManagedWorkflow();
    }
    return UpdateControl.patchStatus(report(cluster, context, model, null));
  }

  @Override
  public ErrorStatusUpdateControl<DhtCluster> updateErrorStatus(
      DhtCluster cluster, Context<DhtCluster> context, Exception failure) {
    var model = ClusterModel.of(cluster, defaultImage);
    return ErrorStatusUpdateControl.patchStatus(report(cluster, context, model, failure));
  }

  /** Computes the status, records events for its transitions, returns the status-only patch. */
  private DhtCluster report(
      DhtCluster cluster, Context<DhtCluster> context, ClusterModel model, Exception failure) {
    var now = Instant.now();
    var observation =
        new ClusterStatusCalculator.Observation(
            cluster,
            model,
            context.getSecondaryResource(StatefulSet.class),
            cluster.isPaused(),
            failure,
            now);
    var status = ClusterStatusCalculator.compute(observation);
    ClusterEvents.emit(
        context.getClient(),
        cluster,
        ClusterEvents.between(
            cluster.getStatus() == null ? List.of() : cluster.getStatus().getConditions(),
            status.getConditions()),
        now);

    var patch = new DhtCluster();
    patch.setMetadata(
        new ObjectMetaBuilder()
            .withName(cluster.getMetadata().getName())
            .withNamespace(cluster.getMetadata().getNamespace())
            .build());
    patch.setStatus(status);
    return patch;
  }
}
