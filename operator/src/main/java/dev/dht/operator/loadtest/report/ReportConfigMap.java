package dev.dht.operator.loadtest.report;

import dev.dht.operator.loadtest.DhtLoadTest;
import dev.dht.operator.loadtest.job.LoadTestModel;
import dev.dht.operator.loadtest.result.RunSummary;
import dev.dht.operator.loadtest.result.Verdict;
import io.fabric8.kubernetes.api.model.ConfigMap;
import java.util.LinkedHashMap;
import java.util.Optional;

/**
 * The report of a finished run, {@code <name>-report}, owned by the test (garbage-collected with
 * it). summary.json is the termination message verbatim; spectrum.txt the wrk2 report from the pod
 * log (full HdrHistogram percentile spectrum), when the log was readable; report.html renders both.
 * The 4 KiB termination message cannot carry the spectrum, so the log is the only other channel a
 * finished pod offers without a volume or API credentials in the load generator. Pure.
 */
public final class ReportConfigMap {
  static final String SUMMARY_KEY = "summary.json";
  public static final String SPECTRUM_KEY = "spectrum.txt";
  public static final String HTML_KEY = "report.html";

  /** Well below the 1 MiB object limit; a spectrum is a few KiB, so this only guards odd logs. */
  static final int MAX_SPECTRUM_CHARS = 256 * 1024;

  private ReportConfigMap() {}

  static ConfigMap build(
      DhtLoadTest test, String target, RunSummary summary, Verdict verdict, Optional<String> wrk2) {
    return build(test, target, summary, verdict, wrk2, null, HtmlReport.Profiles.NONE);
  }

  /**
   * As above, with the baseline and the comparison with it (null: none) and links to the artifacts
   * (flame graphs) in the page.
   */
  public static ConfigMap build(
      DhtLoadTest test,
      String target,
      RunSummary summary,
      Verdict verdict,
      Optional<String> wrk2,
      HtmlReport.Baseline baseline,
      HtmlReport.Profiles profiles) {
    var meta = test.getMetadata();
    var bounded =
        wrk2.map(t -> t.length() <= MAX_SPECTRUM_CHARS ? t : t.substring(0, MAX_SPECTRUM_CHARS));
    var data = new LinkedHashMap<String, String>();
    data.put(SUMMARY_KEY, summary.json() + "\n");
    bounded.ifPresent(text -> data.put(SPECTRUM_KEY, text));
    data.put(
        HTML_KEY, HtmlReport.render(test, target, summary, verdict, bounded, baseline, profiles));
    return LoadTestModel.ownedConfigMap(test, LoadTestModel.reportName(meta.getName()), data);
  }
}
