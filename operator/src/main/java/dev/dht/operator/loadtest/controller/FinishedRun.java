package dev.dht.operator.loadtest.controller;

import dev.dht.operator.cluster.DhtCluster;
import dev.dht.operator.kube.Owners;
import dev.dht.operator.loadtest.Comparison;
import dev.dht.operator.loadtest.DhtLoadTest;
import dev.dht.operator.loadtest.DhtLoadTestStatus;
import dev.dht.operator.loadtest.job.GeneratorPods;
import dev.dht.operator.loadtest.job.GeneratorResult;
import dev.dht.operator.loadtest.job.JobPods;
import dev.dht.operator.loadtest.job.JobState;
import dev.dht.operator.loadtest.job.LoadTestModel;
import dev.dht.operator.loadtest.job.Target;
import dev.dht.operator.loadtest.profile.ProfiledNodes;
import dev.dht.operator.loadtest.report.Artifacts;
import dev.dht.operator.loadtest.report.FlameGraphs;
import dev.dht.operator.loadtest.report.HtmlReport;
import dev.dht.operator.loadtest.report.ReportConfigMap;
import dev.dht.operator.loadtest.result.MergedRun;
import dev.dht.operator.loadtest.result.RunOutcome;
import dev.dht.operator.loadtest.result.Verdict;
import dev.dht.operator.loadtest.result.Wrk2Log;
import dev.dht.operator.policy.ChartPolicy;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A run whose Job finished: its result (one generator's, from its pod; a parallel test's, merged
 * from every generator's histogram), judged against the thresholds and the baseline, with the
 * report and the profiles stored in ConfigMaps; the finished status to write.
 */
final class FinishedRun {
  /** Below this overlap of the generators' measured windows, a merged result says so. */
  static final double MIN_OVERLAP = 0.9;

  private final String defaultImage;
  private final ChartPolicy policy;
  private final FlameGraphs flameGraphs;
  private final GeneratorPods generators;
  private final Context<DhtLoadTest> context;
  private final Instant now;

  FinishedRun(
      String defaultImage,
      ChartPolicy policy,
      FlameGraphs flameGraphs,
      GeneratorPods generators,
      Context<DhtLoadTest> context,
      Instant now) {
    this.defaultImage = defaultImage;
    this.policy = policy;
    this.flameGraphs = flameGraphs;
    this.generators = generators;
    this.context = context;
    this.now = now;
  }

  /** One generator's run: what its pod left (termination message, wrk2 log). */
  DhtLoadTestStatus ofOnePod(DhtLoadTest test, JobState state, Job job) {
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
    return judgeAndReport(test, state, outcome, log.flatMap(Wrk2Log::report));
  }

  /**
   * Every generator of a parallel test completed: one result from all their histograms. A result
   * that was not collected, or a generator that fell behind its share, fails the run by name.
   */
  DhtLoadTestStatus merged(DhtLoadTest test, JobState state, Job job, int parallelism) {
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
    return judgeAndReport(test, state, outcome, Optional.of(merged.spectrum()));
  }

  /**
   * Thresholds give the verdict (a run that measured but failed, aborted or behind, fails it);
   * summary, wrk2 report and HTML go to the report ConfigMap.
   */
  private DhtLoadTestStatus judgeAndReport(
      DhtLoadTest test, JobState state, RunOutcome outcome, Optional<String> wrk2) {
    var summary = outcome.summary();
    var baseline = compare(test, summary.results());
    var comparison = baseline == null ? null : baseline.comparison();
    var verdict =
        outcome.succeeded()
            ? Verdict.judge(summary.results(), test.getSpec().getThresholds(), comparison)
            : Verdict.runFailed(outcome.message());
    String target = test.getStatus() == null ? null : test.getStatus().getTarget();
    List<String> artifacts = List.of();
    List<String> overhead = List.of();
    if (test.getSpec().getProfile() != null) {
      var profiled = flameGraphs(test);
      var stored = Artifacts.build(test, profiled.artifacts());
      stored.configMaps().forEach(this::apply);
      artifacts = stored.names();
      overhead = profiled.overhead();
      var missing = new ArrayList<>(profiled.missing());
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
    apply(report);
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

  /**
   * The flame graphs of the nodes that started the profile the operator asked for while the run
   * measured ({@code status.profile}), and what kept the others'.
   */
  private FlameGraphs.Collected flameGraphs(DhtLoadTest test) {
    var asked = test.getStatus() == null ? null : test.getStatus().getProfile();
    if (asked == null) {
      return new FlameGraphs.Collected(
          List.of(),
          List.of(
              "flame graphs: no node was asked to profile (the operator never saw the measured"
                  + " window open with a second of it left)"),
          List.of());
    }
    var missing = new ArrayList<String>();
    asked.getNotStarted().forEach(why -> missing.add("flame graphs of " + why));
    var target =
        Target.resolve(test, context.getSecondaryResource(DhtCluster.class), defaultImage, policy);
    var profiling =
        LoadTestModel.Profiling.of(test.getSpec().getProfile(), target).only(asked.getNodes());
    if (!profiling.any()) {
      if (!asked.getNodes().isEmpty()) {
        missing.add("flame graphs: not collected, " + target.message());
      }
      return new FlameGraphs.Collected(List.of(), missing, List.of());
    }
    var collected =
        flameGraphs.collect(profiling, ProfiledNodes.access(context.getClient(), test, target));
    missing.addAll(collected.missing());
    return new FlameGraphs.Collected(collected.artifacts(), missing, collected.overhead());
  }

  private void apply(ConfigMap map) {
    context
        .getClient()
        .resource(map)
        .fieldManager(DhtLoadTestReconciler.FIELD_MANAGER)
        .forceConflicts()
        .serverSideApply();
  }

  /**
   * This run against spec.baseline's results, with the baseline's spectrum for the report's chart
   * (from the baseline's report, if the baseline owns it); null without a baseline or its results.
   */
  private HtmlReport.Baseline compare(DhtLoadTest test, DhtLoadTestStatus.Results results) {
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
            .filter(map -> Owners.isOwnedBy(map, baseline)) // not a look-alike made beside it
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
   * A run that was stopped early fails as Aborted, with the results it had: {@code aborted} is why
   * (status.aborted, or a generator's own account); null: it was not.
   */
  static RunOutcome abortedOr(String aborted, RunOutcome outcome) {
    if (aborted == null || !outcome.succeeded()) {
      return outcome;
    }
    return RunOutcome.failed(
            RunOutcome.ABORTED, "aborted: " + aborted + "; " + outcome.summary().describe())
        .withSummary(outcome.summary());
  }

  static String abortReason(DhtLoadTest test) {
    return test.getStatus() == null ? null : test.getStatus().getAborted();
  }
}
