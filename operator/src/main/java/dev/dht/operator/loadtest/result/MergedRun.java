package dev.dht.operator.loadtest.result;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dht.operator.loadtest.DhtLoadTestStatus.Generator;
import dev.dht.operator.loadtest.DhtLoadTestStatus.Latency;
import dev.dht.operator.loadtest.DhtLoadTestStatus.Results;
import dev.dht.operator.loadtest.job.GeneratorResult;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * The one result of generators that ran a test together: counts and rates summed, percentiles read
 * from the union of their histograms (HdrHistogram adds exactly; percentiles are never averaged),
 * each generator's own line, and which of them fell behind their share. Pure.
 *
 * @param summary what status.results and the report show
 * @param spectrum the merged percentile spectrum, in the wrk2/HdrHistogram text format
 * @param behind one line per generator that sent less than {@link #MIN_ACHIEVED} of its rate
 * @param aborted why a generator's run was cut short on request (the first), null if none was
 */
public record MergedRun(RunSummary summary, String spectrum, List<String> behind, String aborted) {
  /**
   * A generator that sent less than this share of its target rate could not keep its schedule:
   * requests it owed were never sent (errors and timeouts count as sent: they are the cluster's).
   */
  static final double MIN_ACHIEVED = 0.99;

  /** The generators record microseconds with 3 significant digits; the union grows as needed. */
  private static final int SIGNIFICANT_DIGITS = 3;

  private static final ObjectMapper JSON = new ObjectMapper();

  /** {@code pods}: the pod of each generator index (for names in lines and messages). */
  public static MergedRun of(List<GeneratorResult> handedOver, Map<Integer, String> pods) {
    var sorted =
        handedOver.stream().sorted(Comparator.comparingInt(GeneratorResult::index)).toList();
    var merged = new Histogram(SIGNIFICANT_DIGITS);
    long requests = 0;
    long errors = 0;
    long non2xx = 0;
    long notFound = 0;
    double achieved = 0;
    double target = 0;
    double duration = 0;
    boolean warmedUp = true;
    var generators = new ArrayList<Generator>();
    var behind = new ArrayList<String>();
    String aborted = null;
    for (var r : sorted) {
      merged.add(r.histogram());
      requests += r.requests();
      errors += r.errors();
      non2xx += r.non2xx();
      notFound += r.notFound();
      achieved += r.achievedRate();
      target += r.targetRate();
      duration = Math.max(duration, r.durationSeconds());
      warmedUp &= r.warmedUp();
      String pod = pods.getOrDefault(r.index(), "?");
      generators.add(line(r, pod));
      if (r.aborted() != null && aborted == null) {
        aborted = "generator " + r.index() + " (pod " + pod + ") was stopped: " + r.aborted();
      }
      if (r.aborted() == null && r.attemptedRate() < MIN_ACHIEVED * r.targetRate()) {
        behind.add(
            "generator "
                + r.index()
                + " (pod "
                + pod
                + ") sent "
                + Verdict.format(round(r.attemptedRate()))
                + " of its "
                + Verdict.format(r.targetRate())
                + " req/s: it could not keep its schedule");
      }
    }
    var results = new Results();
    results.setRequests(requests);
    results.setAchievedRate(round(achieved));
    results.setErrors(errors);
    results.setNon2xx(non2xx);
    results.setNotFound(notFound);
    results.setLatencyMs(
        new Latency(
            GeneratorResult.millis(merged, 50),
            GeneratorResult.millis(merged, 90),
            GeneratorResult.millis(merged, 99),
            GeneratorResult.millis(merged, 99.9),
            merged.getTotalCount() == 0 ? 0 : merged.getMaxValue() / 1000.0));
    results.setWarmedUp(warmedUp);
    results.setWindowOverlap(Math.round(overlap(sorted) * 1000) / 1000.0);
    var json = json(results, target, duration, generators);
    return new MergedRun(
        new RunSummary(json, results, round(target), duration, List.copyOf(generators)),
        spectrum(merged, sorted.size()),
        List.copyOf(behind),
        aborted);
  }

  /**
   * The time all generators measured together over the time any did: 1 when their windows coincide,
   * 0 when some did not overlap at all.
   */
  static double overlap(List<GeneratorResult> results) {
    long latestStart = results.stream().mapToLong(GeneratorResult::windowStartMs).max().orElse(0);
    long earliestEnd = results.stream().mapToLong(GeneratorResult::windowEndMs).min().orElse(0);
    long earliestStart = results.stream().mapToLong(GeneratorResult::windowStartMs).min().orElse(0);
    long latestEnd = results.stream().mapToLong(GeneratorResult::windowEndMs).max().orElse(0);
    if (latestEnd <= earliestStart) {
      return 0;
    }
    return Math.max(0, earliestEnd - latestStart) / (double) (latestEnd - earliestStart);
  }

  private static Generator line(GeneratorResult r, String pod) {
    var g = new Generator();
    g.setIndex(r.index());
    g.setPod(pod);
    g.setTargetRate(round(r.targetRate()));
    g.setAchievedRate(round(r.achievedRate()));
    g.setRequests(r.requests());
    g.setErrors(r.errors());
    g.setNon2xx(r.non2xx());
    g.setP99Ms(r.latencyMs(99));
    g.setWarmedUp(r.warmedUp());
    g.setWindowStart(Instant.ofEpochMilli(r.windowStartMs()).toString());
    g.setWindowEnd(Instant.ofEpochMilli(r.windowEndMs()).toString());
    return g;
  }

  private static String json(
      Results results, double target, double duration, List<Generator> generators) {
    ObjectNode root = JSON.createObjectNode();
    root.put("tool", "dht-loadgen");
    root.put("generators", generators.size());
    root.put("targetRate", round(target));
    root.put("achievedRate", results.getAchievedRate());
    root.put("durationSeconds", duration);
    root.put("requests", results.getRequests());
    root.put("errors", results.getErrors());
    root.put("non2xx", results.getNon2xx());
    root.put("notFound", results.getNotFound());
    root.set("latencyMs", JSON.valueToTree(results.getLatencyMs()));
    root.put("warmedUp", results.getWarmedUp());
    root.put("windowOverlap", results.getWindowOverlap());
    root.set("perGenerator", JSON.valueToTree(generators));
    return root.toString();
  }

  /** HdrHistogram's percentile distribution (wrk2's "Detailed Percentile spectrum"), in ms. */
  static String spectrum(Histogram merged, int generators) {
    var bytes = new ByteArrayOutputStream();
    try (var out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
      out.printf(
          "Merged latency of %d generators (HdrHistogram union, %d requests)%n",
          generators, merged.getTotalCount());
      out.println("  Detailed Percentile spectrum:");
      if (merged.getTotalCount() > 0) {
        merged.outputPercentileDistribution(out, 5, 1000.0);
      }
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }

  private static double round(double value) {
    return Math.round(value * 100) / 100.0;
  }
}
