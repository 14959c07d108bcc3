package dev.dht.operator.cluster;

import dev.dht.operator.kube.Conditions;
import dev.dht.operator.kube.Events;
import dev.dht.operator.rolling.PodState;
import dev.dht.operator.rolling.RollPlan;
import dev.dht.operator.scaling.Membership;
import dev.dht.operator.scaling.NodeAdmin;
import dev.dht.operator.scaling.ScalePlan;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.javaoperatorsdk.operator.api.config.informer.Informer;
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
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;
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
 * generation but must still trigger a reconciliation. Its own status writes do not ({@link
 * NotOwnStatus}).
 */
@ControllerConfiguration(
    name = DhtClusterReconciler.NAME,
    generationAwareEventProcessing = false,
    informer = @Informer(onUpdateFilter = NotOwnStatus.class))
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
          dependsOn = {"config", "peers"})
    })
public class DhtClusterReconciler implements Reconciler<DhtCluster> {
  public static final String NAME = "dhtcluster";

  /** How often a change of size or a roll in progress is looked at again. */
  private static final Duration BUSY_PERIOD = Duration.ofSeconds(2);

  /** How often the nodes are observed otherwise (status.nodes, ConfigApplied). */
  private static final Duration WATCH_PERIOD = Duration.ofSeconds(30);

  /**
   * Annotated on the pods with a hash of their ConfigMap's files (membership, settings) when these
   * change: the kubelet then refreshes the mounted files at once instead of within a minute or so.
   */
  static final String FILES_ANNOTATION = "dht.dev/config-files";

  /** On the data claims of members removed by a scale-down (kept by default). */
  static final String DETACHED_LABEL = "dht.dev/detached";

  /** The operator's default node image (a supplier: tests play an operator upgrade). */
  private final Supplier<String> defaultImage;

  private final ImagePull imagePull;
  private final NodeAdmin nodes;

  public DhtClusterReconciler(String defaultImage, ImagePull imagePull) {
    this(defaultImage, imagePull, new NodeAdmin(UnaryOperator.identity()));
  }

  public DhtClusterReconciler(String defaultImage, NodeAdmin nodes) {
    this(defaultImage, ImagePull.DEFAULT, nodes);
  }

  public DhtClusterReconciler(String defaultImage, ImagePull imagePull, NodeAdmin nodes) {
    this(() -> defaultImage, imagePull, nodes);
  }

  DhtClusterReconciler(Supplier<String> defaultImage, ImagePull imagePull, NodeAdmin nodes) {
    this.defaultImage = defaultImage;
    this.imagePull = imagePull;
    this.nodes = nodes;
  }

  /**
   * What one reconciliation knows and has decided so far: the model (with the next membership once
   * a scale step is decided), what the pods and nodes showed, and the decisions taken.
   */
  private static final class Turn {
    final DhtCluster cluster;
    final Context<DhtCluster> context;
    final OperatorDefaults operatorDefaults;
    ClusterModel model;
    final Seen seen;
    boolean secretMissing;
    ScalePlan.Decision scaleStep;
    RollPlan.Decision roll;

    Turn(
        DhtCluster cluster,
        Context<DhtCluster> context,
        OperatorDefaults operatorDefaults,
        ClusterModel model,
        Seen seen) {
      this.cluster = cluster;
      this.context = context;
      this.operatorDefaults = operatorDefaults;
      this.model = model;
      this.seen = seen;
    }

    String scaling() {
      return scaleStep == null ? null : scaleStep.waiting();
    }
  }

  /**
   * The chain of one reconciliation: observe; unless paused, the Secret, the upgrade permission,
   * the next step of a change of size, the owned objects, the pods' files, the nodes' streams and
   * clean-ups, the next pod to restart, the claims of removed members; then the status.
   */
  @Override
  public UpdateControl<DhtCluster> reconcile(DhtCluster cluster, Context<DhtCluster> context) {
    var turn = observe(cluster, context);
    if (!cluster.isPaused()) {
      createSecretIfNew(turn);
      takeUpgradePermission(turn);
      planScaleStep(turn);
      applyOwnedObjects(turn);
      refreshFiles(turn);
      startStreamsAndCleanups(turn);
      restartNextPod(turn);
      detachClaimsWhenStable(turn);
    }
    return reportAndReschedule(turn);
  }

  private Turn observe(DhtCluster cluster, Context<DhtCluster> context) {
    var current = OperatorDefaults.current(defaultImage.get());
    var model = ClusterModel.of(cluster, UpgradeGate.accepted(cluster, current), imagePull);
    return new Turn(cluster, context, current, model, observe(context, model));
  }

  private static void createSecretIfNew(Turn turn) {
    turn.secretMissing = !SecretDependent.createIfNew(turn.cluster, turn.context, turn.model);
  }

  private static void takeUpgradePermission(Turn turn) {
    if (UpgradeGate.taken(turn.cluster, turn.operatorDefaults)) {
      consumeAllowance(turn.context, turn.cluster);
    }
  }

  /** The next step of a change of size, from what the nodes report; the model moves to it. */
  private static void planScaleStep(Turn turn) {
    var model = turn.model;
    if (!scalingUnderWay(model) || !turn.seen.any()) {
      return;
    }
    turn.scaleStep =
        ScalePlan.next(
            model.membership(),
            model.replicas(),
            model.defaultFrom(),
            turn.seen.nodes(),
            model::podName);
    if (turn.scaleStep != null) {
      turn.model = model.withMembership(turn.scaleStep.next());
    }
  }

  private static void applyOwnedObjects(Turn turn) {
    var workflow = turn.context.managedWorkflowAndDependentResourceContext();
    workflow.put(ClusterModel.CONTEXT_KEY, turn.model);
    workflow.reconcileManagedWorkflow();
  }

  private static void refreshFiles(Turn turn) {
    refreshFiles(turn.context, turn.model, turn.seen);
  }

  private void startStreamsAndCleanups(Turn turn) {
    if (turn.scaleStep != null) {
      act(turn.context, turn.model, turn.scaleStep);
    }
  }

  /** The roller's decision; a restart deletes the pod it names. */
  private static void restartNextPod(Turn turn) {
    if (!turn.seen.any()) {
      return;
    }
    var model = turn.model;
    turn.roll =
        RollPlan.next(
            new RollPlan.Input(
                turn.seen.pods(),
                turn.seen.nodes(),
                model.configHash(),
                model.defaultAck(),
                model.defaultFrom(),
                scalingUnderWay(model),
                templateObserved(turn.context, model)));
    if (turn.roll instanceof RollPlan.Restart restart) {
      restart(turn.context, turn.cluster, model, restart);
    }
  }

  private static void detachClaimsWhenStable(Turn turn) {
    if (turn.model.membership().getStep() == Membership.Step.STABLE) {
      detachClaims(turn.context, turn.cluster, turn.model);
    }
  }

  /** Writes the status; looks again soon while a change or a roll is under way. */
  private static UpdateControl<DhtCluster> reportAndReschedule(Turn turn) {
    var status =
        report(
            turn.cluster,
            turn.context,
            new ClusterStatusCalculator.Observation(
                turn.cluster,
                turn.model,
                turn.context.getSecondaryResource(StatefulSet.class),
                turn.cluster.isPaused(),
                null,
                Instant.now(),
                turn.scaling(),
                turn.seen,
                turn.roll,
                turn.operatorDefaults,
                turn.secretMissing));
    var roll = turn.roll;
    boolean refused = turn.scaling() != null && turn.scaling().startsWith("refused");
    boolean busy =
        scalingUnderWay(turn.model) && !refused
            || roll != null && !(roll instanceof RollPlan.Done || roll instanceof RollPlan.Refuse)
            || status.getStatus().getRoll() != null
            || !Conditions.isTrue(
                status.getStatus().getConditions(), ClusterStatusCalculator.CONFIG_APPLIED);
    return UpdateControl.patchStatus(status).rescheduleAfter(busy ? BUSY_PERIOD : WATCH_PERIOD);
  }

  /**
   * Whether the StatefulSet (as cached) carries the model's config hash and its controller has
   * observed that generation: only then does a deleted pod come back with the current settings.
   */
  private static boolean templateObserved(Context<DhtCluster> context, ClusterModel model) {
    return context
        .getSecondaryResource(StatefulSet.class)
        .filter(sts ->
            model
                .configHash()
                .equals(
                    sts.getSpec()
                        .getTemplate()
                        .getMetadata()
                        .getAnnotations()
                        .get(ClusterModel.CONFIG_HASH_ANNOTATION)))
        .filter(sts ->
            sts.getStatus() != null
                && sts.getStatus().getObservedGeneration() != null
                && sts.getStatus().getObservedGeneration() >= sts.getMetadata().getGeneration())
        .isPresent();
  }

  private static boolean scalingUnderWay(ClusterModel model) {
    var membership = model.membership();
    return membership.getStep() != Membership.Step.STABLE
        || membership.getMembers() != model.replicas();
  }

  /**
   * The pods of ordinals below the larger of the pods to run and the replicas asked for, and what
   * their nodes report (asked in parallel); nothing before the StatefulSet exists.
   */
  private Seen observe(Context<DhtCluster> context, ClusterModel model) {
    if (context.getSecondaryResource(StatefulSet.class).isEmpty()) {
      return Seen.NOTHING;
    }
    int count = Math.max(model.pods(), model.replicas());
    Map<String, Pod> byName = new HashMap<>();
    for (Pod pod :
        context
            .getClient()
            .pods()
            .inNamespace(model.namespace())
            .withLabels(model.selectorLabels())
            .list()
            .getItems()) {
      byName.put(pod.getMetadata().getName(), pod);
    }
    var urls = model.urls(count);
    List<PodState> pods = new ArrayList<>();
    Map<Integer, String> ask = new TreeMap<>();
    Map<Integer, Boolean> ready = new TreeMap<>();
    Map<Integer, String> images = new TreeMap<>();
    Map<Integer, String> files = new TreeMap<>();
    for (int i = 0; i < count; i++) {
      Pod pod = byName.get(model.podName(i));
      if (pod == null) {
        pods.add(PodState.missing(i, model.podName(i)));
        ask.put(i, null);
        continue;
      }
      pods.add(Pods.state(i, pod));
      ask.put(i, urls.get(i));
      ready.put(i, Pods.ready(pod));
      var annotations = pod.getMetadata().getAnnotations();
      if (annotations != null && annotations.containsKey(FILES_ANNOTATION)) {
        files.put(i, annotations.get(FILES_ANNOTATION));
      }
      String image = Pods.image(pod);
      if (image != null) {
        images.put(i, image);
      }
    }
    return new Seen(pods, nodes.views(ask, ready), images, files);
  }

  /** Annotates the pods whose annotation does not name the current files (once per change). */
  private static void refreshFiles(Context<DhtCluster> context, ClusterModel model, Seen seen) {
    String files = model.filesHash();
    for (PodState pod : seen.pods()) {
      if (!pod.exists() || files.equals(seen.files().get(pod.ordinal()))) {
        continue;
      }
      try {
        context
            .getClient()
            .pods()
            .inNamespace(model.namespace())
            .withName(pod.name())
            .edit(p -> {
              if (p.getMetadata().getAnnotations() == null) {
                p.getMetadata().setAnnotations(new HashMap<>());
              }
              p.getMetadata().getAnnotations().put(FILES_ANNOTATION, files);
              return p;
            });
      } catch (RuntimeException e) {
        // gone meanwhile; the kubelet refreshes the files on its own within a minute or so
      }
    }
  }

  /**
   * Removes the one-time permission once it is taken: once a status that records the new defaults
   * was written (and read back), so that a reconciliation of a cluster read before that status
   * still sees the permission.
   */
  private static void consumeAllowance(Context<DhtCluster> context, DhtCluster cluster) {
    try {
      context
          .getClient()
          .resource(cluster)
          .edit(c -> {
            c.getMetadata().getAnnotations().remove(UpgradeGate.ALLOW_ANNOTATION);
            return c;
          });
    } catch (RuntimeException e) {
      // taken again on the next reconciliation; the defaults are accepted in the status meanwhile
    }
  }

  /** Deletes the pod (the StatefulSet recreates it from the current template), and says so. */
  private static void restart(
      Context<DhtCluster> context,
      DhtCluster cluster,
      ClusterModel model,
      RollPlan.Restart restart) {
    context
        .getClient()
        .pods()
        .inNamespace(model.namespace())
        .withName(restart.pod().name())
        .delete();
    Events.emit(
        context.getClient(),
        cluster,
        List.of(
            new Events.Transition(
                Events.NORMAL,
                "RollingRestart",
                "restarting pod "
                    + restart.pod().name()
                    + " for config "
                    + model.configHash()
                    + " (it runs "
                    + restart.pod().configHash()
                    + "): "
                    + restart.reason())),
        Instant.now());
  }

  /**
   * Carries out a decision once the owned objects are applied: asks nodes to stream or clean up.
   */
  private void act(Context<DhtCluster> context, ClusterModel model, ScalePlan.Decision decision) {
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
    var current = OperatorDefaults.current(defaultImage.get());
    var model = ClusterModel.of(cluster, UpgradeGate.accepted(cluster, current), imagePull);
    return ErrorStatusUpdateControl.patchStatus(
        report(
            cluster,
            context,
            new ClusterStatusCalculator.Observation(
                cluster,
                model,
                context.getSecondaryResource(StatefulSet.class),
                cluster.isPaused(),
                failure,
                Instant.now(),
                null,
                Seen.NOTHING,
                null,
                current,
                false)));
  }

  /** Computes the status, records events for its transitions, returns the status-only patch. */
  private static DhtCluster report(
      DhtCluster cluster, Context<DhtCluster> context, ClusterStatusCalculator.Observation in) {
    var status = ClusterStatusCalculator.compute(in);
    ClusterEvents.emit(
        context.getClient(),
        cluster,
        ClusterEvents.between(
            cluster.getStatus() == null ? List.of() : cluster.getStatus().getConditions(),
            status.getConditions()),
        in.now());
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
