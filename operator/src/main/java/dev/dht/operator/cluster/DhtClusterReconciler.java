package dev.dht.operator.cluster;

import dev.dht.operator.scaling.Membership;
import dev.dht.operator.scaling.NodeAdmin;
import dev.dht.operator.scaling.NodeProgress;
import dev.dht.operator.scaling.NodeView;
import dev.dht.operator.scaling.ScalePlan;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.ErrorStatusUpdateControl;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.api.reconciler.Workflow;
import io.javaoperatorsdk.operator.api.reconciler.dependent.Dependent;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reconciles a {@link DhtCluster}: resolve the model, take the next step of a change of size if one
 * is under way ({@link ScalePlan}, from what the pods' nodes report on their admin endpoint), apply
 * the owned objects (unless paused), then report what was observed in the status. The workflow is
 * invoked explicitly so that the pause annotation can skip it while the status keeps being written.
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

  /** How often a change of size in progress is looked at again. */
  private static final Duration SCALING_PERIOD = Duration.ofSeconds(2);

  /** Annotated on the pods when their membership file changes: the kubelet then refreshes it. */
  static final String EPOCH_ANNOTATION = "dht.dev/membership-epoch";

  /** On the data claims of members removed by a scale-down (kept by default). */
  static final String DETACHED_LABEL = "dht.dev/detached";

  private final String defaultImage;
  private final NodeAdmin nodes;

  public DhtClusterReconciler(String defaultImage) {
    this(defaultImage, new NodeAdmin(UnaryOperator.identity()));
  }

  public DhtClusterReconciler(String defaultImage, NodeAdmin nodes) {
    this.defaultImage = defaultImage;
    this.nodes = nodes;
  }

  @Override
  public UpdateControl<DhtCluster> reconcile(DhtCluster cluster, Context<DhtCluster> context) {
    var model = ClusterModel.of(cluster, defaultImage);
    String scaling = null;
    List<NodeProgress> progress = List.of();
    if (!cluster.isPaused()) {
      Map<Integer, NodeView> views = observe(context, model);
      var decision =
          views == null
              ? null
              : ScalePlan.next(
                  model.membership(), model.replicas(), model.defaultFrom(), views, model::podName);
      if (views != null) {
        var names = model;
        progress =
            views.values().stream()
                .map(v -> NodeProgress.of(names.podName(v.ordinal()), v))
                .toList();
      }
      if (decision != null) {
        model = model.withMembership(decision.next());
        scaling = decision.waiting();
      }
      var workflow = context.managedWorkflowAndDependentResourceContext();
      workflow.put(ClusterModel.CONTEXT_KEY, model);
      workflow.reconcileManagedWorkflow();
      if (decision != null) {
        act(context, model, decision);
      }
      if (model.membership().getStep() == Membership.Step.STABLE) {
        detachClaims(context, cluster, model);
      }
    }
    var status = report(cluster, context, model, null, scaling);
    status.getStatus().setNodes(progress);
    var control = UpdateControl.patchStatus(status);
    var membership = model.membership();
    boolean underWay =
        membership.getStep() != Membership.Step.STABLE
            || membership.getMembers() != model.replicas();
    boolean refused = scaling != null && scaling.startsWith("refused");
    return underWay && !refused ? control.rescheduleAfter(SCALING_PERIOD) : control;
  }

  /**
   * What the pods and their nodes report, by ordinal, while a change of size is to be made or under
   * way; null when there is none (or the StatefulSet does not exist yet).
   */
  private Map<Integer, NodeView> observe(Context<DhtCluster> context, ClusterModel model) {
    var now = model.membership();
    if (now.getStep() == Membership.Step.STABLE && now.getMembers() == model.replicas()) {
      return null;
    }
    if (context.getSecondaryResource(StatefulSet.class).isEmpty()) {
      return null;
    }
    int count = Math.max(now.pods(), model.replicas());
    var urls = model.urls(count);
    Map<Integer, NodeView> views = new java.util.TreeMap<>();
    for (int i = 0; i < count; i++) {
      Pod pod =
          context
              .getClient()
              .pods()
              .inNamespace(model.namespace())
              .withName(model.podName(i))
              .get();
      views.put(
          i, pod == null ? NodeView.unreachable(i, false) : nodes.view(i, urls.get(i), ready(pod)));
    }
    return views;
  }

  private static boolean ready(Pod pod) {
    return pod.getStatus() != null
        && pod.getStatus().getConditions() != null
        && pod.getStatus().getConditions().stream()
            .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
  }

  /**
   * Carries out a decision once the owned objects are applied: nudges the pods to re-read their
   * membership file, and asks the nodes to stream or clean up.
   */
  private void act(Context<DhtCluster> context, ClusterModel model, ScalePlan.Decision decision) {
    var client = context.getClient();
    String epoch = Long.toString(model.membership().getEpoch());
    for (int i = 0; i < model.pods(); i++) {
      try {
        client
            .pods()
            .inNamespace(model.namespace())
            .withName(model.podName(i))
            .edit(p -> {
              if (p.getMetadata().getAnnotations() == null) {
                p.getMetadata().setAnnotations(new HashMap<>());
              }
              p.getMetadata().getAnnotations().put(EPOCH_ANNOTATION, epoch);
              return p;
            });
      } catch (RuntimeException e) {
        // the pod may not exist yet; the kubelet refreshes the file on its own within a minute
      }
    }
    if (decision.stream().isEmpty() && decision.cleanup().isEmpty()) {
      return;
    }
    String secret = secret(context, model);
    var urls = model.urls(model.pods());
    decision.stream().forEach(i -> nodes.start(urls.get(i), "stream", secret));
    decision.cleanup().forEach(i -> nodes.start(urls.get(i), "cleanup", secret));
  }

  /**
   * The data claims of ordinals beyond the members (left by a scale-down) are labelled detached, or
   * deleted if the spec says so; a claim a member uses again loses the label.
   */
  private static void detachClaims(
      Context<DhtCluster> context, DhtCluster cluster, ClusterModel model) {
    var claims = context.getClient().persistentVolumeClaims().inNamespace(model.namespace());
    Pattern name = Pattern.compile(Pattern.quote("data-" + model.name() + "-") + "(\\d+)");
    boolean delete =
        cluster.getSpec() != null
            && cluster.getSpec().getDetachedClaims() == DhtClusterSpec.DetachedClaims.Delete;
    for (var claim : claims.withLabels(model.selectorLabels()).list().getItems()) {
      Matcher m = name.matcher(claim.getMetadata().getName());
      if (!m.matches()) {
        continue;
      }
      boolean detached = Integer.parseInt(m.group(1)) >= model.pods();
      var labels = claim.getMetadata().getLabels();
      boolean labelled = labels != null && "true".equals(labels.get(DETACHED_LABEL));
      var resource = claims.withName(claim.getMetadata().getName());
      if (detached && delete) {
        resource.delete();
      } else if (detached != labelled) {
        resource.edit(c -> {
          if (detached) {
            c.getMetadata().getLabels().put(DETACHED_LABEL, "true");
          } else {
            c.getMetadata().getLabels().remove(DETACHED_LABEL);
          }
          return c;
        });
      }
    }
  }

  /** The cluster secret the nodes expect in the admin header. */
  private static String secret(Context<DhtCluster> context, ClusterModel model) {
    Secret secret =
        context
            .getClient()
            .secrets()
            .inNamespace(model.namespace())
            .withName(model.secretName())
            .get();
    if (secret == null || secret.getData() == null || !secret.getData().containsKey("secret")) {
      return null;
    }
    return new String(
            Base64.getDecoder().decode(secret.getData().get(ClusterModel.SECRET_KEY)),
            StandardCharsets.UTF_8)
        .strip();
  }

  @Override
  public ErrorStatusUpdateControl<DhtCluster> updateErrorStatus(
      DhtCluster cluster, Context<DhtCluster> context, Exception failure) {
    var model = ClusterModel.of(cluster, defaultImage);
    return ErrorStatusUpdateControl.patchStatus(report(cluster, context, model, failure, null));
  }

  /** Computes the status, records events for its transitions, returns the status-only patch. */
  private DhtCluster report(
      DhtCluster cluster,
      Context<DhtCluster> context,
      ClusterModel model,
      Exception failure,
      String scaling) {
    var now = Instant.now();
    var observation =
        new ClusterStatusCalculator.Observation(
            cluster,
            model,
            context.getSecondaryResource(StatefulSet.class),
            cluster.isPaused(),
            failure,
            now,
            scaling);
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
