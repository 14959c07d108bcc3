package dev.dht.operator.loadtest.controller;

import static java.util.Objects.requireNonNullElse;

import dev.dht.operator.cluster.DhtCluster;
import dev.dht.operator.cluster.ImagePull;
import dev.dht.operator.kube.Events;
import dev.dht.operator.kube.Owners;
import dev.dht.operator.loadtest.DhtLoadTest;
import dev.dht.operator.loadtest.DhtLoadTestStatus;
import dev.dht.operator.loadtest.job.ControlToken;
import dev.dht.operator.loadtest.job.GeneratorImagePull;
import dev.dht.operator.loadtest.job.GeneratorPods;
import dev.dht.operator.loadtest.job.GeneratorProgress;
import dev.dht.operator.loadtest.job.GeneratorUser;
import dev.dht.operator.loadtest.job.GoDuration;
import dev.dht.operator.loadtest.job.JobDependent;
import dev.dht.operator.loadtest.job.JobState;
import dev.dht.operator.loadtest.job.LoadTestModel;
import dev.dht.operator.loadtest.job.Target;
import dev.dht.operator.loadtest.profile.ProfileStart;
import dev.dht.operator.loadtest.profile.ProfiledNodes;
import dev.dht.operator.loadtest.report.FlameGraphs;
import dev.dht.operator.loadtest.result.AbortRule;
import dev.dht.operator.loadtest.result.RunOutcome;
import dev.dht.operator.loadtest.result.RunProgress;
import dev.dht.operator.loadtest.result.Verdict;
import dev.dht.operator.policy.ChartPolicy;
import dev.dht.operator.scaling.NodeAdmin;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.ErrorStatusUpdateControl;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.PrimaryUpdateAndCacheUtils;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.api.reconciler.Workflow;
import io.javaoperatorsdk.operator.api.reconciler.dependent.Dependent;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import java.net.http.HttpClient;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

/**
 * Runs a {@link DhtLoadTest} once: wait for the target, make the generators' control token ({@link
 * ControlToken}), create the load generator Job, follow it, and when it has finished read the
 * results, judge them and write the report. A finished test is never touched again (its spec is
 * immutable, so it cannot be asked to run twice).
 *
 * <p>Watches the Jobs it owns and the DhtClusters that tests reference (so a test starts as soon as
 * its cluster turns Ready); a pending test is also re-checked every {@link #PENDING_RECHECK}.
 */
@ControllerConfiguration(name = DhtLoadTestReconciler.NAME)
@Workflow(
    explicitInvocation = true,
    dependents = @Dependent(name = "job", type = JobDependent.class))
public class DhtLoadTestReconciler implements Reconciler<DhtLoadTest> {
  public static final String NAME = "dhtloadtest";
  static final Duration PENDING_RECHECK = Duration.ofSeconds(15);

  /** How often the generators of a running test are asked where they stand. */
  static final Duration POLL = Duration.ofSeconds(2);

  /** Generators' windows that overlap less than this are named in the outcome. */
  static final String BY_CLUSTER_INDEX = "dhtloadtest-by-cluster";

  static final String FIELD_MANAGER = "dht-operator";

  private final String defaultImage;
  private final ImagePull imagePull;

  /** Where a targetUrl may point, which cluster image the generators may run. */
  private final ChartPolicy policy;

  private final FlameGraphs flameGraphs;
  private final ProfiledNodes profiledNodes;
  private final UnaryOperator<String> podAddress;

  /** One HTTP client for every talk with generator pods (its connections and thread are kept). */
  private final HttpClient generatorHttp = GeneratorPods.httpClient();

  /**
   * {@code imagePull}: how generator pods pull their image when the target cluster does not say
   * (the operator's node defaults); {@code policy}: where a targetUrl may point, which cluster
   * image the generators may run.
   */
  public DhtLoadTestReconciler(String defaultImage, ImagePull imagePull, ChartPolicy policy) {
    this(defaultImage, imagePull, policy, UnaryOperator.identity());
  }

  /**
   * {@code podAddress} maps a node's admin address or a generator's control URL to the address to
   * call (tests: local ports).
   */
  public DhtLoadTestReconciler(
      String defaultImage,
      ImagePull imagePull,
      ChartPolicy policy,
      UnaryOperator<String> podAddress) {
    this.defaultImage = defaultImage;
    this.imagePull = imagePull;
    this.policy = policy;
    var nodes = new NodeAdmin(podAddress);
    this.flameGraphs = new FlameGraphs(nodes);
    this.profiledNodes = new ProfiledNodes(nodes);
    this.podAddress = podAddress;
  }

  @Override
  public List<EventSource<?, DhtLoadTest>> prepareEventSources(
      EventSourceContext<DhtLoadTest> context) {
    var tests = context.getPrimaryCache();
    tests.addIndexer(BY_CLUSTER_INDEX, test -> waitingFor(test).map(List::of).orElse(List.of()));
    var clusters =
        InformerEventSourceConfiguration.from(DhtCluster.class, DhtLoadTest.class)
            .withSecondaryToPrimaryMapper((DhtCluster cluster) ->
                tests
                    .byIndex(
                        BY_CLUSTER_INDEX,
                        key(cluster.getMetadata().getNamespace(), cluster.getMetadata().getName()))
                    .stream()
                    .map(ResourceID::fromResource)
                    .collect(Collectors.toSet()))
            .withPrimaryToSecondaryMapper((DhtLoadTest test) ->
                Optional.ofNullable(test.getSpec().getClusterRef())
                    .map(ref ->
                        Set.of(new ResourceID(ref.getName(), test.getMetadata().getNamespace())))
                    .orElse(Set.of()))
            .build();
    return List.of(new InformerEventSource<>(clusters, context));
  }

  @Override
  public UpdateControl<DhtLoadTest> reconcile(DhtLoadTest test, Context<DhtLoadTest> context) {
    if (test.getStatus() != null && test.getStatus().isFinished()) {
      return UpdateControl.noUpdate();
    }
    var now = Instant.now();
    var job = existingJob(test, context);
    if (job.isPresent() && !Owners.isOwnedBy(job.get(), test)) {
      return failJobNotOwned(test, job.get(), context, now);
    }
    if (job.isPresent()) {
      return followJob(test, job.get(), context, now);
    }
    if (test.getStatus() != null && test.getStatus().getJobName() != null) {
      return failJobDeleted(test, context, now);
    }
    var cluster = context.getSecondaryResource(DhtCluster.class);
    var target = Target.resolve(test, cluster, defaultImage, policy);
    if (target.ready() && target.userName() != null) {
      String waiting =
          GeneratorUser.notReady(
              context.getClient(),
              test,
              cluster.orElseThrow(),
              LoadTestModel.of(test, target).keyPrefix());
      if (waiting != null) {
        target = target.waiting(Target.USER_NOT_READY, waiting);
      }
    }
    if (target.ready()) {
      // last: the token is made only for a Job about to be created
      var waiting = ControlToken.notReady(context.getClient(), test);
      if (waiting != null) {
        target = target.waiting(waiting.reason(), waiting.message());
      }
    }
    if (!target.ready()) {
      return waitForTarget(test, target, context, now);
    }
    return createJob(test, target, GeneratorImagePull.of(test, cluster, imagePull), context, now);
  }

  /** A Job runs or ran: its state, and once it finished, the result, verdict and report. */
  private UpdateControl<DhtLoadTest> followJob(
      DhtLoadTest test, Job job, Context<DhtLoadTest> context, Instant now) {
    var status = follow(test, job, context, now);
    if (status.isFinished()) {
      GeneratorUser.revoke(context.getClient(), test);
    }
    var control = report(test, context, status);
    return status.isFinished() ? control : control.rescheduleAfter(POLL);
  }

  /** The status names a Job that is gone: the run failed. */
  private static UpdateControl<DhtLoadTest> failJobDeleted(
      DhtLoadTest test, Context<DhtLoadTest> context, Instant now) {
    var outcome = RunOutcome.jobDeleted(test.getStatus().getJobName());
    return report(
        test,
        context,
        LoadTestStatusCalculator.finished(
            test, null, outcome, Verdict.runFailed(outcome.message()), null, now));
  }

  /**
   * A Job of the test's Job name that the test does not control (made before it, by someone else):
   * the run fails rather than read that Job's pods as its generators.
   */
  private static UpdateControl<DhtLoadTest> failJobNotOwned(
      DhtLoadTest test, Job job, Context<DhtLoadTest> context, Instant now) {
    var outcome = RunOutcome.jobNotOwned(job.getMetadata().getName());
    return report(
        test,
        context,
        LoadTestStatusCalculator.finished(
            test, null, outcome, Verdict.runFailed(outcome.message()), null, now));
  }

  /** The target cannot take load yet: pending until spec.pendingTimeout, then failed. */
  private static UpdateControl<DhtLoadTest> waitForTarget(
      DhtLoadTest test, Target target, Context<DhtLoadTest> context, Instant now) {
    var timeout = GoDuration.parse(requireNonNullElse(test.getSpec().getPendingTimeout(), "10m"));
    var created = test.getMetadata().getCreationTimestamp();
    var deadline = created == null ? now.plus(timeout) : Instant.parse(created).plus(timeout);
    if (deadline.isBefore(now)) {
      var outcome = RunOutcome.pendingTooLong(target.message(), timeout);
      return report(
          test,
          context,
          LoadTestStatusCalculator.finished(
              test, null, outcome, Verdict.runFailed(outcome.message()), null, now));
    }
    var recheck = Duration.between(now, deadline).plusSeconds(1);
    return report(test, context, LoadTestStatusCalculator.pending(test, target, now))
        .rescheduleAfter(recheck.compareTo(PENDING_RECHECK) < 0 ? recheck : PENDING_RECHECK);
  }

  /** The target is ready: the Job (and its generators' objects) are created. */
  private static UpdateControl<DhtLoadTest> createJob(
      DhtLoadTest test, Target target, ImagePull pull, Context<DhtLoadTest> context, Instant now) {
    var model = LoadTestModel.of(test, target, pull);
    var workflow = context.managedWorkflowAndDependentResourceContext();
    workflow.put(LoadTestModel.CONTEXT_KEY, model);
    workflow.reconcileManagedWorkflow();
    return report(
        test, context, LoadTestStatusCalculator.running(test, model.jobName(), target, null, now));
  }

  @Override
  public ErrorStatusUpdateControl<DhtLoadTest> updateErrorStatus(
      DhtLoadTest test, Context<DhtLoadTest> context, Exception failure) {
    write(test, context, LoadTestStatusCalculator.failure(test, failure, Instant.now()));
    return ErrorStatusUpdateControl.noStatusUpdate();
  }

  /** The Job from the informer; if the status names one the cache lacks, asks the apiserver. */
  private static Optional<Job> existingJob(DhtLoadTest test, Context<DhtLoadTest> context) {
    var cached = context.getSecondaryResource(Job.class);
    if (cached.isPresent() || test.getStatus() == null || test.getStatus().getJobName() == null) {
      return cached;
    }
    return Optional.ofNullable(
        context
            .getClient()
            .batch()
            .v1()
            .jobs()
            .inNamespace(test.getMetadata().getNamespace())
            .withName(test.getStatus().getJobName())
            .get());
  }

  /** Running, or finished: then read what the pod left, judge, report. */
  private DhtLoadTestStatus follow(
      DhtLoadTest test, Job job, Context<DhtLoadTest> context, Instant now) {
    var state = JobState.of(job);
    int parallelism = LoadTestModel.parallelism(test.getSpec());
    if (!state.finished()) {
      var status =
          LoadTestStatusCalculator.running(test, job.getMetadata().getName(), null, state, now);
      watch(test, job, parallelism, status, context);
      return status;
    }
    var finished =
        new FinishedRun(defaultImage, policy, flameGraphs, generators(test, context), context, now);
    return parallelism > 1 && state.kind() == JobState.Kind.COMPLETE
        ? finished.merged(test, state, job, parallelism)
        : finished.ofOnePod(test, state, job);
  }

  /**
   * A round with the running generators: start a parallel test's together and collect their
   * results, show where the run stands, and stop it once its verdict is decided (abortOnFail).
   */
  private void watch(
      DhtLoadTest test,
      Job job,
      int parallelism,
      DhtLoadTestStatus status,
      Context<DhtLoadTest> context) {
    var spec = test.getSpec();
    var generators = generators(test, context);
    var observed = generators.seen(job);
    var seen = observed.progress();
    var warmup = GoDuration.parse(requireNonNullElse(spec.getWarmup(), "10s"));
    var duration = GoDuration.parse(requireNonNullElse(spec.getDuration(), "60s"));
    var progress = RunProgress.of(seen, parallelism, warmup, duration);
    status.setProgress(progress.status());
    if (parallelism > 1) {
      var step = generators.coordinate(test, seen, parallelism, knownStartAt(test));
      status.setStartAt(
          step.startAt() == null ? null : Instant.ofEpochMilli(step.startAt()).toString());
      if (step.waiting() != null) {
        progress.status().setSummary("waiting: " + step.waiting());
      }
    }
    if (progress.status().getElapsedSeconds() == 0 && !observed.waiting().isEmpty()) {
      // what Kubernetes says keeps a generator from running, e.g. no room for its CPU request
      progress.status().setSummary("waiting: " + String.join("; ", observed.waiting()));
    }
    if (status.getAborted() != null) {
      generators.abort(
          seen.stream().filter(g -> "running".equals(g.phase())).toList(), status.getAborted());
      return;
    }
    double expected = spec.getRate() * (duration.toMillis() / 1000.0);
    AbortRule.check(spec.getThresholds(), expected, progress.measured(), progress.failed())
        .ifPresent(reason -> {
          generators.abort(seen, reason);
          status.setAborted(reason);
        });
    startProfile(test, status, seen, duration, context);
  }

  /**
   * With spec.profile: once the generators report their measured window open, the profiled nodes
   * are asked to profile what is left of it ({@link ProfileStart}); status.profile records it, so
   * they are asked once.
   */
  private void startProfile(
      DhtLoadTest test,
      DhtLoadTestStatus status,
      List<GeneratorProgress> seen,
      Duration duration,
      Context<DhtLoadTest> context) {
    if (test.getSpec().getProfile() == null) {
      return;
    }
    var target =
        Target.resolve(test, context.getSecondaryResource(DhtCluster.class), defaultImage, policy);
    var profiling = LoadTestModel.Profiling.of(test.getSpec().getProfile(), target);
    ProfileStart.seconds(profiling.any(), status, seen, duration)
        .ifPresent(seconds ->
            status.setProfile(
                profiledNodes.start(
                    profiling,
                    ProfiledNodes.access(context.getClient(), test, target),
                    seconds,
                    Instant.now())));
  }

  /** The test's generators, asked with the token of its own control Secret. */
  private GeneratorPods generators(DhtLoadTest test, Context<DhtLoadTest> context) {
    return new GeneratorPods(
        context.getClient(),
        generatorHttp,
        podAddress,
        FIELD_MANAGER,
        ControlToken.read(context.getClient(), test));
  }

  private static Long knownStartAt(DhtLoadTest test) {
    var status = test.getStatus();
    return status == null || status.getStartAt() == null
        ? null
        : Instant.parse(status.getStartAt()).toEpochMilli();
  }

  /**
   * Writes the status and records events for its transitions. The status is this controller's
   * memory (job created, run finished), so it is written with optimistic locking and cached for the
   * next reconciliation: a reconciliation must never start from a status older than the last one
   * written, or it would report a running test as pending again, or a finished one twice.
   */
  private static UpdateControl<DhtLoadTest> report(
      DhtLoadTest test, Context<DhtLoadTest> context, DhtLoadTestStatus status) {
    write(test, context, status);
    return UpdateControl.noUpdate();
  }

  private static void write(
      DhtLoadTest test, Context<DhtLoadTest> context, DhtLoadTestStatus status) {
    var patch = new DhtLoadTest();
    patch.setMetadata(
        new ObjectMetaBuilder()
            .withName(test.getMetadata().getName())
            .withNamespace(test.getMetadata().getNamespace())
            .build());
    patch.setStatus(status);
    PrimaryUpdateAndCacheUtils.ssaPatchStatusAndCacheResource(test, patch, context);
    Events.emit(
        context.getClient(), test, LoadTestEvents.between(test.getStatus(), status), Instant.now());
  }

  /** Index key of the cluster an unstarted test waits for; started tests need no cluster events. */
  private static Optional<String> waitingFor(DhtLoadTest test) {
    var ref = test.getSpec() == null ? null : test.getSpec().getClusterRef();
    boolean started = test.getStatus() != null && test.getStatus().getJobName() != null;
    if (ref == null || ref.getName() == null || started) {
      return Optional.empty();
    }
    return Optional.of(key(test.getMetadata().getNamespace(), ref.getName()));
  }

  private static String key(String namespace, String name) {
    return namespace + "/" + name;
  }
}
