package dev.dht.operator.cluster;

import dev.dht.operator.kube.Conditions;
import dev.dht.operator.policy.ChartPolicy;
import dev.dht.operator.policy.Refusal;
import dev.dht.operator.replacing.NodeReplacement;
import dev.dht.operator.replacing.ReplacementPlan;
import dev.dht.operator.rolling.RollPlan;
import dev.dht.operator.scaling.Membership;
import dev.dht.operator.scaling.NodeAdmin;
import dev.dht.operator.scaling.ScalePlan;
import dev.dht.operator.scaling.ZoneSpread;
import dev.dht.operator.tls.CertManagerSecrets;
import dev.dht.operator.tls.CertificatePolicy;
import dev.dht.operator.tls.TlsReport;
import dev.dht.operator.tls.TlsSecrets;
import dev.dht.operator.users.DhtUser;
import dev.dht.operator.volumes.VolumeExpansion;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.javaoperatorsdk.operator.api.config.informer.Informer;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.ErrorStatusUpdateControl;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.api.reconciler.Workflow;
import io.javaoperatorsdk.operator.api.reconciler.dependent.Dependent;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * Reconciles a {@link DhtCluster}: resolve the model, take the next step of a change of size or of
 * the default ack/from if one is under way ({@link ScalePlan}, from what the pods' nodes report on
 * their admin endpoint), apply the owned objects (unless paused), then report what was observed in
 * the status. The workflow is invoked explicitly so that the pause annotation can skip it while the
 * status keeps being written.
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
          name = "netpol",
          type = NodeNetworkPolicyDependent.class,
          reconcilePrecondition = NetworkPolicyWanted.class),
      @Dependent(
          name = "nodes",
          type = StatefulSetDependent.class,
          dependsOn = {"config", "peers"})
    })
public class DhtClusterReconciler implements Reconciler<DhtCluster> {
  public static final String NAME = "dhtcluster";

  /** How often a change of size or of the default ack/from, or a roll, is looked at again. */
  private static final Duration BUSY_PERIOD = Duration.ofSeconds(2);

  /** How often the nodes are observed otherwise (status.nodes, ConfigApplied). */
  private static final Duration WATCH_PERIOD = Duration.ofSeconds(30);

  /** The operator's default node image (a supplier: tests play an operator upgrade). */
  private final Supplier<String> defaultImage;

  private final ImagePull imagePull;
  private final NodeAdmin nodes;
  private final TlsSecrets certificates;
  private final CertManagerSecrets certManager = new CertManagerSecrets();
  private final NodeZones nodeZones = new NodeZones();

  /** What the chart allows a cluster's spec.image and spec.jvmOptions to be. */
  private final ChartPolicy policy;

  /** With the chart's default policy (any image, any JVM option). */
  public DhtClusterReconciler(String defaultImage, ImagePull imagePull) {
    this(defaultImage, imagePull, ChartPolicy.DEFAULT);
  }

  public DhtClusterReconciler(String defaultImage, ImagePull imagePull, ChartPolicy policy) {
    this(
        () -> defaultImage,
        imagePull,
        new NodeAdmin(UnaryOperator.identity()),
        CertificatePolicy.DEFAULT,
        policy);
  }

  public DhtClusterReconciler(String defaultImage, NodeAdmin nodes) {
    this(defaultImage, ImagePull.DEFAULT, nodes);
  }

  public DhtClusterReconciler(String defaultImage, ImagePull imagePull, NodeAdmin nodes) {
    this(() -> defaultImage, imagePull, nodes);
  }

  DhtClusterReconciler(Supplier<String> defaultImage, ImagePull imagePull, NodeAdmin nodes) {
    this(defaultImage, imagePull, nodes, CertificatePolicy.DEFAULT);
  }

  /** With other certificate lifetimes or propagation delay (tests). */
  DhtClusterReconciler(
      Supplier<String> defaultImage,
      ImagePull imagePull,
      NodeAdmin nodes,
      CertificatePolicy certificatePolicy) {
    this(defaultImage, imagePull, nodes, certificatePolicy, ChartPolicy.DEFAULT);
  }

  DhtClusterReconciler(
      Supplier<String> defaultImage,
      ImagePull imagePull,
      NodeAdmin nodes,
      CertificatePolicy certificatePolicy,
      ChartPolicy policy) {
    this.defaultImage = defaultImage;
    this.imagePull = imagePull;
    this.nodes = nodes;
    this.certificates = new TlsSecrets(certificatePolicy);
    this.policy = policy;
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

    /** Why the chart's policy refuses the spec (image, JVM options); null if it allows it. */
    final Refusal refusal;

    SecretState secret = SecretState.OURS;
    TlsReport tls;
    ClusterUsers.Report users;
    ScalePlan.Decision scaleStep;
    RollPlan.Decision roll;
    ReplacementPlan.Decision replacement;

    /** The restore of a cluster created from a backup; null for others. */
    ClusterRestore.Report restore;

    /** The volumes against spec.storage.size; null when not looked at. */
    VolumeExpansion.Outcome volumes;

    Turn(
        DhtCluster cluster,
        Context<DhtCluster> context,
        OperatorDefaults operatorDefaults,
        ClusterModel model,
        Seen seen,
        Refusal refusal) {
      this.cluster = cluster;
      this.context = context;
      this.operatorDefaults = operatorDefaults;
      this.model = model;
      this.seen = seen;
      this.refusal = refusal;
    }

    String scaling() {
      return scaleStep == null ? null : scaleStep.waiting();
    }

    /** The pod whose replacement on a new volume runs, else null. */
    String replacing() {
      return replacement == null ? null : replacement.replacing();
    }
  }

  /**
   * The chain of one reconciliation: observe; unless paused, the Secret, the TLS certificates
   * (before the StatefulSet that mounts them), the upgrade permission, the replacement of a node on
   * a new volume, the next step of a change of size, the owned objects, the volumes' size, the
   * pods' files, the nodes' streams and clean-ups, the next pod to restart, the claims of removed
   * members; then the status. A Secret of those names that is not the cluster's stops the chain
   * there: nothing that would mount it or send it is applied. A spec.image or spec.jvmOption that
   * the chart's policy refuses stops it after the users file: no StatefulSet is created or changed
   * and no node restarted, so running nodes keep their pod template (and still get their
   * certificates and users).
   */
  /**
   * The DhtUsers, mapped to the cluster they name: a new, changed or deleted user (or a new token,
   * status.tokenIssued) reaches the nodes at once.
   */
  @Override
  public List<EventSource<?, DhtCluster>> prepareEventSources(
      EventSourceContext<DhtCluster> context) {
    var users =
        InformerEventSourceConfiguration.from(DhtUser.class, DhtCluster.class)
            .withSecondaryToPrimaryMapper((DhtUser user) ->
                user.clusterName() == null
                    ? Set.of()
                    : Set.of(new ResourceID(user.clusterName(), user.getMetadata().getNamespace())))
            .build();
    return List.of(new InformerEventSource<>(users, context));
  }

  @Override
  public UpdateControl<DhtCluster> reconcile(DhtCluster cluster, Context<DhtCluster> context) {
    var turn = observe(cluster, context);
    if (!cluster.isPaused()
        && createSecretIfNew(turn) != SecretState.NOT_OURS
        && issueCertificates(turn)
        && writeUsers(turn)
        && resolveRestore(turn)) {
      if (turn.refusal == null) {
        changeNodes(turn);
      } else {
        pushUsers(turn); // a revocation still reaches the running nodes
      }
    }
    return reportAndReschedule(turn);
  }

  /**
   * The backup a cluster created from one restores, and how far its nodes got (the restore file
   * leaves their ConfigMap once all did); false while the source cannot be resolved: no node starts
   * without it (it would start empty and serve).
   */
  private boolean resolveRestore(Turn turn) {
    turn.restore = ClusterRestore.resolve(turn.context.getClient(), turn.cluster);
    if (turn.restore == null) {
      return true;
    }
    if (turn.restore.holds()) {
      return false;
    }
    turn.restore =
        ClusterRestore.observe(
            turn.restore,
            turn.model,
            turn.seen,
            nodes,
            ClusterActions.access(turn.context, turn.model));
    turn.model = turn.model.withRestore(turn.restore.state());
    return true;
  }

  /** The steps that may create, change, restart or replace nodes. */
  private void changeNodes(Turn turn) {
    takeUpgradePermission(turn);
    replaceNode(turn);
    planScaleStep(turn);
    applyOwnedObjects(turn);
    expandVolumes(turn);
    refreshFiles(turn);
    pushUsers(turn);
    startStreamsAndCleanups(turn);
    restartNextPod(turn);
    detachClaimsWhenStable(turn);
  }

  private Turn observe(DhtCluster cluster, Context<DhtCluster> context) {
    var current = OperatorDefaults.current(defaultImage.get());
    var model = ClusterModel.of(cluster, UpgradeGate.accepted(cluster, current), imagePull);
    return new Turn(
        cluster,
        context,
        current,
        model,
        ClusterActions.observe(context, model, nodes, nodeZones),
        refusal(cluster, current));
  }

  /** Why the chart's policy refuses the cluster's own image or JVM options; null if it does not. */
  private Refusal refusal(DhtCluster cluster, OperatorDefaults current) {
    var spec = cluster.getSpec();
    return spec == null
        ? null
        : policy.nodes(spec.getImage(), spec.getJvmOptions(), current.getImage()).orElse(null);
  }

  private static SecretState createSecretIfNew(Turn turn) {
    turn.secret = SecretDependent.ensure(turn.cluster, turn.context, turn.model);
    return turn.secret;
  }

  /**
   * The CA, trust bundle and node certificate of a TLS cluster ({@link TlsSecrets}); false if a
   * Secret of theirs is someone else's.
   */
  private boolean issueCertificates(Turn turn) {
    turn.tls =
        ClusterTls.reconcile(
            certificates,
            certManager,
            turn.context.getClient(),
            turn.cluster,
            turn.model,
            Instant.now());
    return !turn.tls.blocked();
  }

  /** The users file ({@link ClusterUsers}); false if a Secret of that name is someone else's. */
  private static boolean writeUsers(Turn turn) {
    turn.users = ClusterUsers.write(turn.context, turn.model, turn.seen);
    return turn.users == null || !turn.users.blocked();
  }

  /** The users document to the nodes that hold an older one (a revocation: within seconds). */
  private void pushUsers(Turn turn) {
    if (turn.users != null && turn.seen.any()) {
      turn.users =
          ClusterUsers.push(
              turn.users,
              turn.seen,
              turn.model,
              ClusterActions.access(turn.context, turn.model),
              nodes);
    }
  }

  private static void takeUpgradePermission(Turn turn) {
    if (UpgradeGate.taken(turn.cluster, turn.operatorDefaults)) {
      ClusterActions.consumeAllowance(turn.context, turn.cluster);
    }
  }

  /**
   * The replacement of a node on a new volume that {@value ReplacementPlan#ANNOTATION} asks for:
   * its next step, taken before a change of size could start (it would wait for it).
   */
  private static void replaceNode(Turn turn) {
    if (turn.seen.any()) {
      var nodes = turn.seen.nodes();
      var model = turn.model;
      // Ready is not enough: a node is Ready while it asks its peers whether it lacks data, before
      // it pulls it; its own report says whether it serves reads
      java.util.function.Predicate<String> serving =
          pod ->
              nodes.entrySet().stream()
                  .anyMatch(e ->
                      model.podName(e.getKey()).equals(pod)
                          && e.getValue().answered()
                          && e.getValue().servesReads());
      turn.replacement =
          ReplacementActions.replace(turn.context, turn.cluster, model, serving, Instant.now());
    }
  }

  /**
   * The next step of a change of size, of the default ack/from or of the members' zones, from what
   * the nodes report; the model moves to it. None starts while a node is being replaced: the plan's
   * steps count on every member's data, and the replaced one has none until it pulled its keys (a
   * change already under way goes on; a replacement does not start during one).
   */
  private static void planScaleStep(Turn turn) {
    var model = turn.model;
    if (!turn.seen.any()) {
      return;
    }
    var wanted =
        new ScalePlan.Wanted(
            model.replicas(),
            model.replication(),
            turn.cluster.lostOrdinals(),
            // a restore loads each node's share by the membership it was created with: no zone
            // known changes it
            turn.restore != null && turn.restore.loading() ? Map.of() : turn.seen.zones());
    if (!scalingUnderWay(model)
        && ScalePlan.rezone(model.membership(), wanted, turn.seen.nodes()) == null) {
      return;
    }
    if (turn.replacing() != null && model.membership().getStep() == Membership.Step.STABLE) {
      return;
    }
    turn.scaleStep = ScalePlan.next(model.membership(), wanted, turn.seen.nodes(), model::podName);
    if (turn.scaleStep != null) {
      turn.model = model.withMembership(turn.scaleStep.next());
    }
  }

  private static void applyOwnedObjects(Turn turn) {
    var workflow = turn.context.managedWorkflowAndDependentResourceContext();
    workflow.put(ClusterModel.CONTEXT_KEY, turn.model);
    workflow.reconcileManagedWorkflow();
  }

  /** The claims grown to spec.storage.size, the StatefulSet recreated for a larger template. */
  private static void expandVolumes(Turn turn) {
    turn.volumes = ClusterVolumes.expand(turn.context, turn.model);
  }

  private static void refreshFiles(Turn turn) {
    ClusterActions.refreshFiles(turn.context, turn.model, turn.seen);
  }

  private void startStreamsAndCleanups(Turn turn) {
    if (turn.scaleStep != null) {
      ClusterActions.startStreamsAndCleanups(turn.context, turn.model, turn.scaleStep, nodes);
    }
  }

  /**
   * The roller's decision; a restart evicts the pod it names, and waits instead if the disruption
   * budget refuses.
   */
  private static void restartNextPod(Turn turn) {
    if (!turn.seen.any()) {
      return;
    }
    var model = turn.model;
    // during a change of ack/from, requests meet both rings: a restart must suit the stricter
    var replication = model.membership().strictest();
    turn.roll =
        RollPlan.next(
            new RollPlan.Input(
                turn.seen.pods(),
                turn.seen.nodes(),
                model.desiredRevision(),
                replication.ack(),
                replication.from(),
                model.membership(),
                ClusterActions.templateObserved(turn.context, model),
                turn.replacing()));
    if (turn.roll instanceof RollPlan.Restart restart) {
      turn.roll = ClusterActions.restart(turn.context, turn.cluster, model, restart);
    }
  }

  private static void detachClaimsWhenStable(Turn turn) {
    if (turn.model.membership().getStep() == Membership.Step.STABLE) {
      ClusterActions.detachClaims(turn.context, turn.cluster, turn.model);
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
                turn.secret,
                turn.replacement,
                turn.refusal),
            turn.tls,
            turn.users,
            turn.restore,
            turn.volumes);
    var roll = turn.roll;
    boolean refused = turn.scaling() != null && turn.scaling().startsWith("refused");
    boolean busy =
        scalingUnderWay(turn.model) && !refused
            || roll != null && !(roll instanceof RollPlan.Done || roll instanceof RollPlan.Refuse)
            || status.getStatus().getRoll() != null
            || replacementBusy(status.getStatus())
            || turn.users != null && turn.users.nodesBehind() > 0
            // a restore's source may complete any moment, its nodes load their shares
            || turn.restore != null && (turn.restore.holds() || !turn.restore.state().completed())
            // refused: the settings wait for a change of the spec (an event), not for the nodes
            || turn.refusal == null
                && !Conditions.isTrue(
                    status.getStatus().getConditions(), ClusterStatusCalculator.CONFIG_APPLIED);
    return UpdateControl.patchStatus(status)
        .rescheduleAfter(
            ClusterTls.lookAgainAfter(busy ? BUSY_PERIOD : WATCH_PERIOD, turn.tls, Instant.now()));
  }

  /** A replacement runs, or its annotation is still to be seen removed. */
  private static boolean replacementBusy(DhtClusterStatus status) {
    var replacement = status.getReplacement();
    return replacement != null
        && (replacement.running() || replacement.getPhase() == NodeReplacement.Phase.Done);
  }

  /** A change of size or of the default ack/from is under way or wanted (it may be refused). */
  private static boolean scalingUnderWay(ClusterModel model) {
    var membership = model.membership();
    return membership.getStep() != Membership.Step.STABLE
        || membership.getMembers() != model.replicas()
        || !model.replication().equals(membership.replication());
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
                SecretState.OURS,
                null,
                refusal(cluster, current)),
            null,
            null,
            null,
            null));
  }

  /**
   * Computes the status, records events for its transitions, returns the status-only patch; {@code
   * tls}, {@code users}, {@code restore} and {@code volumes} are null when the certificates, users,
   * restore or claims were not looked at (their status is kept).
   */
  private static DhtCluster report(
      DhtCluster cluster,
      Context<DhtCluster> context,
      ClusterStatusCalculator.Observation in,
      TlsReport tls,
      ClusterUsers.Report users,
      ClusterRestore.Report restore,
      VolumeExpansion.Outcome volumes) {
    var status = ClusterStatusCalculator.compute(in);
    ClusterTls.report(status, cluster, in.model().generation(), tls, in.now());
    ClusterUsers.report(status, cluster, in.model(), users, in.now());
    ClusterRestore.report(status, cluster, in.model(), restore, in.now());
    ClusterVolumes.report(status, cluster, in.model(), volumes, in.now());
    if (status.getMembership() != null && in.seen().any()) {
      status.setZones(
          ZoneSpread.of(
              status.getMembership(),
              in.seen().zones(),
              in.model().topology().zoneKeyOrDefault(),
              in.model().topology().replicasByZone(),
              restore != null && restore.loading(),
              in.model()::podName));
    }
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
