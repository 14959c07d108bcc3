package dev.dht.operator.loadtest.site;

import dev.dht.operator.loadtest.DhtLoadTest;
import dev.dht.operator.loadtest.report.HtmlReport;
import dev.dht.operator.loadtest.result.Verdict;
import java.util.List;

/** The report site's index page: one row per load test, with its results and verdict. Pure. */
final class ReportIndex {
  private ReportIndex() {}

  static String render(String namespace, List<DhtLoadTest> tests) {
    String title = namespace == null ? "dht load tests" : "dht load tests in " + namespace;
    var h = new StringBuilder(4096);
    h.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>")
        .append(HtmlReport.escape(title))
        .append("</title>\n<style>body{font-family:sans-serif;margin:2em;color:#222}")
        .append("table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px 10px}")
        .append("th{background:#f3f3f3}.Passed{color:#1e7e34}.Failed{color:#c0392b}</style>")
        .append("</head><body>\n<h1>")
        .append(HtmlReport.escape(title))
        .append("</h1>\n<table id=\"tests\"><tr><th>namespace</th><th>test</th><th>phase</th>")
        .append("<th>rate</th><th>achieved</th><th>p99 ms</th><th>verdict</th>")
        .append("<th>baseline</th></tr>\n");
    for (DhtLoadTest t : tests) {
      var meta = t.getMetadata();
      var st = t.getStatus();
      var results = st == null ? null : st.getResults();
      var latency = results == null ? null : results.getLatencyMs();
      String verdict = st == null || st.getVerdict() == null ? "" : st.getVerdict();
      String link = "/reports/" + meta.getNamespace() + "/" + meta.getName() + "/";
      h.append("<tr><td>")
          .append(HtmlReport.escape(meta.getNamespace()))
          .append("</td><td><a href=\"")
          .append(HtmlReport.escape(link))
          .append("\">")
          .append(HtmlReport.escape(meta.getName()))
          .append("</a></td><td>")
          .append(st == null || st.getPhase() == null ? "" : HtmlReport.escape(st.getPhase()))
          .append("</td><td>")
          .append(t.getSpec() == null ? "" : String.valueOf(t.getSpec().getRate()))
          .append("</td><td>")
          .append(results == null ? "" : Verdict.format(results.getAchievedRate()))
          .append("</td><td>")
          .append(latency == null ? "" : Verdict.format(latency.getP99()))
          .append("</td><td class=\"")
          .append(HtmlReport.escape(verdict))
          .append("\">")
          .append(HtmlReport.escape(verdict))
          .append("</td><td>")
          .append(
              t.getSpec() == null || t.getSpec().getBaseline() == null
                  ? ""
                  : HtmlReport.escape(t.getSpec().getBaseline().getName()))
          .append("</td></tr>\n");
    }
    return h.append("</table>\n</body></html>\n").toString();
  }
}
