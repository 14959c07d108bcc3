package dev.dht.operator.loadtest.controller;

import static java.util.Objects.requireNonNullElse;

import dev.dht.operator.cluster.DhtCluster;
import dev.dht.operator.kube.Events;
import dev.dht.operator.loadtest.Comparison;
import dev.dht.operator.loadtest.DhtLoadTest;
import dev.dht.operator.loadtest.DhtLoadTestStatus;
import dev.dht.operator.loadtest.job.GeneratorPods;
import dev.dht.operator.loadtest.job.GeneratorResult;
import dev.dht.operator.loadtest.job.GoDuration;
import dev.dht.operator.loadtest.job.JobDependent;
import dev.dht.operator.loadtest.job.JobPods;
import dev.dht.operator.loadtest.job.JobState;
import dev.dht.operator.loadtest.job.LoadTestModel;
import dev.dht.operator.loadtest.job.Target;
import dev.dht.operator.loadtest.report.Artifacts;
import dev.dht.operator.loadtest.report.FlameGraphs;
import dev.dht.operator.loadtest.report.HtmlReport;
import dev.dht.operator.loadtest.report.ReportConfigMap;
import dev.dht.operator.loadtest.result.AbortRule;
import dev.dht.operator.loadtest.result.MergedRun;
import dev.dht.operator.loadtest.result.RunOutcome;
import dev.dht.operator.loadtest.result.RunProgress;
import dev.dht.operator.loadtest.result.Verdict;
import dev.dht.operator.loadtest.result.Wrk2Log;
import io.fabric8.kubernetes.api.model.ConfigMap;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

/**
 * Runs a {@link DhtLoadTest} once: wait for the target, create the load generator Job, follow it,
 * and when it has finished read the results, judge them and write the report. A finished test is
 * never touched again (its spec is immutable, so it cannot be asked to run twice).
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
  static final double MIN_OVERLAP = 0.9;

  static final String BY_CLUSTER_INDEX = "dhtloadtest-by-cluster";
  private static final String FIELD_MANAGER = "dht-operator";

  private final String defaultImage;
  private final FlameGraphs flameGraphs;
  private final UnaryOperator<String> podAddress;

  /** One HTTP client for every talk with generator pods (its connections and thread are kept). */
  private final HttpClient generatorHttp = GeneratorPods.httpClient();

  public DhtLoadTestReconciler(String defaultImage) {
    this(defaultImage, UnaryOperator.identity());
  }

  /**
   * {@code podAddress} maps the URL of a node or of a generator's control port to the address to
   * call (tests: local ports).
   */
  public DhtLoadTestReconciler(String defaultImage, UnaryOperator<String> podAddress) {
    this.defaultImage = defaultImage;
    this.flameGraphs = new FlameGraphs(podAddress);
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
    if (job.isPresent()) {
      return followJob(test, job.get(), context, now);
    }
    if (test.getStatus() != null && test.getStatus().getJobName() != null) {
      return failJobDeleted(test, context, now);
    }
    var target = Target.resolve(test, context.getSecondaryResource(DhtCluster.class), defaultImage);
    if (!target.ready()) {
      return waitForTarget(test, target, context, now);
    }
    return createJob(test, target, context, now);
  }

  /** A Job runs or ran: its state, and once it finished, the result, verdict and report. */
  private UpdateControl<DhtLoadTest> followJob(
      DhtLoadTest test, Job job, Context<DhtLoadTest> context, Instant now) {
    var status = follow(test, job, context, now);
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
      DhtLoadTest test, Target target, Context<DhtLoadTest> context, Instant now) {
    var model = LoadTestModel.of(test, target);
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
    if (parallelism > 1 && state.kind() == JobState.Kind.COMPLETE) {
      return merge(test, state, job, parallelism, context, now);
    }
    var pods = new JobPods(context.getClient());
    var pod = pods.podOf(job);
    var log = pod.flatMap(pods::log);
    var outcome =
        RunOutcome.of(
            state,
            JobPods.terminated(pod),
            pod.map(p -> p.getMetadata().getName()).orElse("(no pod)"),
            log.map(l -> Wrk2Log.tail(l, 5, 600)));
    outcome = abortedOr(abortReason(test), outcome);
    if (outcome.summary() == null) {
      var verdict = Verdict.runFailed(outcome.reason() + ": " + outcome.message());
      return LoadTestStatusCalculator.finished(test, state, outcome, verdict, null, now);
    }
    return judgeAndReport(test, state, outcome, log.flatMap(Wrk2Log::report), context, now);
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
    var generators = generators(context);
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
  }

  /**
   * A run that was stopped early fails as Aborted, with the results it had: {@code aborted} is why
   * (status.aborted, or a generator's own account); null: it was not.
   */
  private static RunOutcome abortedOr(String aborted, RunOutcome outcome) {
    if (aborted == null || !outcome.succeeded()) {
      return outcome;
    }
    return RunOutcome.failed(
            RunOutcome.ABORTED, "aborted: " + aborted + "; " + outcome.summary().describe())
        .withSummary(outcome.summary());
  }

  private static String abortReason(DhtLoadTest test) {
    return test.getStatus() == null ? null : test.getStatus().getAborted();
  }

  private GeneratorPods generators(Context<DhtLoadTest> context) {
    return new GeneratorPods(context.getClient(), generatorHttp, podAddress, FIELD_MANAGER);
  }

  private static Long knownStartAt(DhtLoadTest test) {
    var status = test.getStatus();
    return status == null || status.getStartAt() == null
        ? null
        : Instant.parse(status.getStartAt()).toEpochMilli();
  }

  /**
   * Every generator of a parallel test completed: one result from all their histograms. A result
   * that was not collected, or a generator that fell behind its share, fails the run by name.
   */
  private DhtLoadTestStatus merge(
      DhtLoadTest test,
      JobState state,
      Job job,
      int parallelism,
      Context<DhtLoadTest> context,
      Instant now) {
    var generators = generators(context);
    var pods = GeneratorPods.podNames(generators.pods(job));
    var collected = generators.collected(test);
    var results = new ArrayList<GeneratorResult>();
    var missing = new ArrayList<String>();
    for (int i = 0; i < parallelism; i++) {
      String pod = pods.getOrDefault(i, "?");
      String json = collected.get(i);
      if (json == null) {
        missing.add("generator " + i + " (pod " + pod + ") handed over no result");
        continue;
      }
      try {
        results.add(GeneratorResult.parse(json));
      } catch (IllegalArgumentException e) {
        missing.add(
            "generator " + i + " (pod " + pod + ") left an unreadable result: " + e.getMessage());
      }
    }
    if (!missing.isEmpty()) {
      var outcome = RunOutcome.failed(RunOutcome.RESULTS_MISSING, String.join("; ", missing));
      return LoadTestStatusCalculator.finished(
          test, state, outcome, Verdict.runFailed(outcome.message()), null, now);
    }
    var merged = MergedRun.of(results, pods);
    var summary = merged.summary();
    String aborted = abortReason(test) != null ? abortReason(test) : merged.aborted();
    var outcome =
        abortedOr(aborted, new RunOutcome(true, RunOutcome.COMPLETED, summary.describe(), summary));
    if (outcome.succeeded() && !merged.behind().isEmpty()) {
      outcome =
          RunOutcome.failed(
                  RunOutcome.GENERATOR_BEHIND,
                  summary.describe() + "; " + String.join("; ", merged.behind()))
              .withSummary(summary);
    }
    double overlap = summary.results().getWindowOverlap();
    if (overlap < MIN_OVERLAP) {
      outcome =
          outcome.withNote(
              "the generators' measured windows overlapped by only "
                  + Verdict.format(overlap * 100)
                  + "% (a generator started late, or their hosts' clocks differ): the merged"
                  + " result mixes different moments");
    }
    return judgeAndReport(test, state, outcome, Optional.of(merged.spectrum()), context, now);
  }

  /**
   * Thresholds give the verdict (a run that measured but failed, aborted or behind, fails it);
   * summary, wrk2 report and HTML go to the report ConfigMap.
   */
  private DhtLoadTestStatus judgeAndReport(
      DhtLoadTest test,
      JobState state,
      RunOutcome outcome,
      Optional<String> wrk2,
      Context<DhtLoadTest> context,
      Instant now) {
    var summary = outcome.summary();
    var baseline = compare(test, summary.results(), context);
    var comparison = baseline == null ? null : baseline.comparison();
    var verdict =
        outcome.succeeded()
            ? Verdict.judge(summary.results(), test.getSpec().getThresholds(), comparison)
            : Verdict.runFailed(outcome.message());
    String target = test.getStatus() == null ? null : test.getStatus().getTarget();
    var profiling =
        LoadTestModel.Profiling.of(
            test.getSpec().getProfile(),
            Target.resolve(test, context.getSecondaryResource(DhtCluster.class), defaultImage));
    List<String> artifacts = List.of();
    List<String> overhead = List.of();
    if (profiling.any()) {
      var collected = flameGraphs.collect(profiling);
      var stored = Artifacts.build(test, collected.artifacts());
      stored.configMaps().forEach(map -> apply(context, map));
      artifacts = stored.names();
      overhead = collected.overhead();
      var missing = new ArrayList<>(collected.missing());
      missing.addAll(stored.left());
      if (!missing.isEmpty()) {
        outcome = outcome.withNote("not stored: " + String.join("; ", missing));
      }
    }
    var report =
        ReportConfigMap.build(
            test,
            Objects.toString(target, ""),
            summary,
            verdict,
            wrk2,
            baseline,
            new HtmlReport.Profiles(artifacts, overhead));
    apply(context, report);
    String name = report.getMetadata().getName();
    if (wrk2.isEmpty()) {
      outcome =
          outcome.withNote(
              "report "
                  + name
                  + " has no percentile spectrum: the pod log held no wrk2 report (unreadable or"
                  + " cut)");
    }
    var status = LoadTestStatusCalculator.finished(test, state, outcome, verdict, name, now);
    status.setComparison(comparison);
    status.setArtifacts(artifacts);
    return status;
  }

  private static void apply(Context<DhtLoadTest> context, ConfigMap map) {
    context
        .getClient()
        .resource(map)
        .fieldManager(FIELD_MANAGER)
        .forceConflicts()
        .serverSideApply();
  }

  /**
   * This run against spec.baseline's results, with the baseline's spectrum for the report's chart;
   * null without a baseline or its results.
   */
  private static HtmlReport.Baseline compare(
      DhtLoadTest test, DhtLoadTestStatus.Results results, Context<DhtLoadTest> context) {
    var ref = test.getSpec().getBaseline();
    if (ref == null) {
      return null;
    }
    var baseline =
        context
            .getClient()
            .resources(DhtLoadTest.class)
            .inNamespace(test.getMetadata().getNamespace())
            .withName(ref.getName())
            .get();
    if (baseline == null
        || baseline.getStatus() == null
        || baseline.getStatus().getResults() == null) {
      return null;
    }
    var report =
        context
            .getClient()
            .configMaps()
            .inNamespace(test.getMetadata().getNamespace())
            .withName(LoadTestModel.reportName(ref.getName()))
            .get();
    var spectrum =
        Optional.ofNullable(report)
            .map(ConfigMap::getData)
            .map(data -> data.get(ReportConfigMap.SPECTRUM_KEY))
            .map(Wrk2Log::spectrum)
            .filter(points -> !points.isEmpty())
            .orElseGet(() -> {
              var latency = baseline.getStatus().getResults().getLatencyMs();
              return latency == null ? List.of() : HtmlReport.fromSummary(latency);
            });
    return new HtmlReport.Baseline(
        Comparison.of(ref.getName(), baseline.getStatus().getResults(), results), spectrum);
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
