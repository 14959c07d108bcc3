package dev.dht.operator.loadtest.report;

import dev.dht.operator.loadtest.Comparison;
import dev.dht.operator.loadtest.DhtLoadTest;
import dev.dht.operator.loadtest.DhtLoadTestStatus;
import dev.dht.operator.loadtest.result.RunSummary;
import dev.dht.operator.loadtest.result.Verdict;
import dev.dht.operator.loadtest.result.Wrk2Log;
import dev.dht.operator.loadtest.result.Wrk2Log.Point;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A self-contained HTML page for the report ConfigMap: results, verdict, a latency-by-percentile
 * chart (inline SVG, x = log10(1/(1-p)) as HdrHistogram plots it) and the wrk2 text. The chart uses
 * the full spectrum from the pod log when there is one, else the summary's percentiles. Pure.
 */
public final class HtmlReport {
  /**
   * The run's flame graphs (artifact names, served beside the page) and what profiling cost each
   * node, in words.
   */
  public record Profiles(List<String> flameGraphs, List<String> overhead) {
    static final Profiles NONE = new Profiles(List.of(), List.of());
  }

  /**
   * The run's baseline: the comparison with it (as in the status), and its latency by percentile,
   * drawn beside this run's.
   */
  public record Baseline(Comparison comparison, List<Point> spectrum) {
    public Baseline {
      spectrum = List.copyOf(spectrum);
    }
  }

  private static final int WIDTH = 760;
  private static final int HEIGHT = 360;
  private static final int LEFT = 70;
  private static final int RIGHT = 20;
  private static final int TOP = 20;
  private static final int BOTTOM = 45;
  private static final int MAX_DECADES = 6;

  /** What a framed artifact may do: run its own scripts, in an origin of its own. */
  public static final String FRAME_SANDBOX = "allow-scripts";

  private HtmlReport() {}

  static String render(
      DhtLoadTest test, String target, RunSummary summary, Verdict verdict, Optional<String> wrk2) {
    return render(test, target, summary, verdict, wrk2, null, Profiles.NONE);
  }

  /**
   * As above, with a table of the comparison with the baseline (null: none) and its curve in the
   * chart, and links to the artifacts, relative: the report site serves them beside the page.
   */
  static String render(
      DhtLoadTest test,
      String target,
      RunSummary summary,
      Verdict verdict,
      Optional<String> wrk2,
      Baseline baseline,
      Profiles profiles) {
    var h = new StringBuilder(8192);
    heading(h, "dht load test " + test.getMetadata().getName(), target, verdict);
    resultsTable(h, summary);
    generators(h, summary.generators(), summary.results().getWindowOverlap());
    warmUp(h, summary.results());
    comparisonTable(h, baseline == null ? null : baseline.comparison());
    flameGraphs(h, profiles.flameGraphs());
    profilingCost(h, profiles.overhead());
    latencyChart(h, summary, wrk2, baseline);
    wrk2.ifPresent(text -> preformatted(h, "wrk2 output", text));
    preformatted(h, "summary.json", summary.json());
    return h.append("</body></html>\n").toString();
  }

  /** The page's head, its title, the target and the verdict. */
  private static void heading(StringBuilder h, String title, String target, Verdict verdict) {
    h.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>")
        .append(escape(title))
        .append("</title>\n<style>body{font-family:sans-serif;margin:2em;color:#222}")
        .append("table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px 10px;")
        .append("text-align:right}th{background:#f3f3f3}pre{background:#f8f8f8;padding:1em}")
        .append(".Passed{color:#1e7e34}.Failed{color:#c0392b}</style></head><body>\n<h1>")
        .append(escape(title))
        .append("</h1>\n<p>")
        .append(escape(target))
        .append("</p>\n<p>Verdict: <strong class=\"")
        .append(verdict.text())
        .append("\">")
        .append(verdict.text())
        .append("</strong> &mdash; ")
        .append(escape(verdict.message()))
        .append("</p>\n");
  }

  /** The run's results in one row. */
  private static void resultsTable(StringBuilder h, RunSummary summary) {
    var r = summary.results();
    var l = r.getLatencyMs();
    h.append("<table><tr><th>target req/s</th><th>achieved req/s</th><th>requests</th>")
        .append("<th>errors</th><th>non-2xx</th><th>404</th><th>p50 ms</th><th>p90 ms</th>")
        .append("<th>p99 ms</th><th>p99.9 ms</th><th>max ms</th></tr>\n<tr>");
    cells(
        h,
        List.of(
            Verdict.format(summary.targetRate()),
            Verdict.format(r.getAchievedRate()),
            r.getRequests(),
            r.getErrors(),
            r.getNon2xx(),
            r.getNotFound(),
            Verdict.format(l.getP50()),
            Verdict.format(l.getP90()),
            Verdict.format(l.getP99()),
            Verdict.format(l.getP999()),
            Verdict.format(l.getMax())));
    h.append("</tr></table>\n");
  }

  /** One row per generator of a parallel test, so that a slow one stands out. */
  private static void generators(
      StringBuilder h, List<DhtLoadTestStatus.Generator> generators, Double overlap) {
    if (generators.isEmpty()) {
      return;
    }
    h.append("<h2>Generators</h2>\n<p>Their measured windows overlapped by ")
        .append(overlap == null ? "?" : Verdict.format(overlap * 100))
        .append("%.</p>\n<table id=\"generators\"><tr><th>generator</th><th>pod</th>")
        .append("<th>target req/s</th><th>achieved req/s</th><th>requests</th><th>errors</th>")
        .append("<th>non-2xx</th><th>p99 ms</th><th>measured from</th><th>to</th></tr>\n");
    for (var g : generators) {
      h.append("<tr>");
      cells(
          h,
          List.of(
              g.getIndex(),
              g.getPod(),
              Verdict.format(g.getTargetRate()),
              Verdict.format(g.getAchievedRate()),
              g.getRequests(),
              g.getErrors(),
              g.getNon2xx(),
              Verdict.format(g.getP99Ms()),
              g.getWindowStart(),
              g.getWindowEnd()));
      h.append("</tr>\n");
    }
    h.append("</table>\n");
  }

  /** Whether latency had stopped falling, from the p99 of each third of the measured window. */
  private static void warmUp(StringBuilder h, DhtLoadTestStatus.Results r) {
    if (r.getP99ByThirdMs() == null) {
      return;
    }
    var thirds = r.getP99ByThirdMs();
    boolean warm = !Boolean.FALSE.equals(r.getWarmedUp());
    h.append("<p id=\"warm-up\" class=\"")
        .append(warm ? "Passed" : "Failed")
        .append("\">")
        .append(warm ? "Warmed up" : escape("Not warmed up: latency was still falling"))
        .append(escape(" (p99 by third of the measured window: "))
        .append(escape(thirds.stream().map(Verdict::format).collect(Collectors.joining(" / "))))
        .append(" ms)")
        .append(warm ? "" : escape(". A longer warm-up gives numbers that hold."))
        .append("</p>\n");
  }

  /** Per metric, the baseline's value, this run's and the change; nothing without a baseline. */
  private static void comparisonTable(StringBuilder h, Comparison comparison) {
    if (comparison == null) {
      return;
    }
    h.append("<h2>Against ")
        .append(escape(comparison.getBaseline()))
        .append("</h2>\n<table id=\"comparison\"><tr><th>metric</th><th>")
        .append(escape(comparison.getBaseline()))
        .append("</th><th>this run</th><th>change</th><th></th></tr>\n");
    for (var row : comparison.getRows()) {
      h.append("<tr><td>")
          .append(escape(row.getMetric()))
          .append("</td><td>")
          .append(Verdict.format(row.getBaseline()))
          .append("</td><td>")
          .append(Verdict.format(row.getCurrent()))
          .append("</td><td>")
          .append(
              row.getChangePercent() == null ? "n/a" : Verdict.format(row.getChangePercent()) + "%")
          .append("</td><td>")
          .append(row.getSummary() == null ? "" : escape(row.getSummary()))
          .append("</td></tr>\n");
    }
    h.append("</table>\n");
  }

  /**
   * Each flame graph shown in the page (the report site serves it beside the page), and linked. A
   * flame graph is a node's output: framed in a sandbox that lets it draw (scripts) but gives it an
   * opaque origin (no {@code allow-same-origin}, which together with scripts would undo the
   * sandbox).
   */
  private static void flameGraphs(StringBuilder h, List<String> artifacts) {
    if (artifacts.isEmpty()) {
      return;
    }
    h.append("<h2>Flame graphs</h2>\n<div id=\"artifacts\">\n");
    for (String artifact : artifacts) {
      String name = escape(artifact);
      h.append("<figure class=\"flame\"><figcaption><a href=\"")
          .append(name)
          .append("\">")
          .append(name)
          .append("</a></figcaption><iframe sandbox=\"")
          .append(FRAME_SANDBOX)
          .append("\" src=\"")
          .append(name)
          .append("\" title=\"")
          .append(name)
          .append("\" width=\"100%\" height=\"360\"></iframe></figure>\n");
    }
    h.append("</div>\n");
  }

  /** What profiling cost the nodes, a line each. */
  private static void profilingCost(StringBuilder h, List<String> overhead) {
    if (overhead.isEmpty()) {
      return;
    }
    h.append("<h2>What profiling cost</h2>\n<ul id=\"profiling-overhead\">\n");
    overhead.forEach(line -> h.append("<li>").append(escape(line)).append("</li>\n"));
    h.append("</ul>\n");
  }

  /**
   * The chart of the wrk2 report's spectrum, else of the summary's percentiles (said so when there
   * is no report), with the baseline's curve if there is one.
   */
  private static void latencyChart(
      StringBuilder h, RunSummary summary, Optional<String> wrk2, Baseline baseline) {
    var points =
        wrk2.map(Wrk2Log::spectrum)
            .filter(p -> !p.isEmpty())
            .orElse(fromSummary(summary.results().getLatencyMs()));
    Comparison comparison = baseline == null ? null : baseline.comparison();
    h.append("<h2>Latency by percentile</h2>\n")
        .append(
            wrk2.isPresent()
                ? ""
                : "<p>From the summary's percentiles only: the pod log held no wrk2 report"
                    + " (unreadable or cut), so the full spectrum is missing.</p>\n")
        .append(
            chart(
                points,
                baseline == null ? List.of() : baseline.spectrum(),
                comparison == null ? null : comparison.getBaseline()))
        .append('\n');
  }

  /** A heading and the text as it is. */
  private static void preformatted(StringBuilder h, String heading, String text) {
    h.append("<h2>").append(heading).append("</h2>\n<pre>").append(escape(text)).append("</pre>\n");
  }

  /** Table cells, each value as text. */
  private static void cells(StringBuilder h, List<?> values) {
    for (Object cell : values) {
      h.append("<td>").append(escape(String.valueOf(cell))).append("</td>");
    }
  }

  public static List<Point> fromSummary(DhtLoadTestStatus.Latency l) {
    var points = new ArrayList<Point>();
    addIfKnown(points, 0.5, l.getP50());
    addIfKnown(points, 0.9, l.getP90());
    addIfKnown(points, 0.99, l.getP99());
    addIfKnown(points, 0.999, l.getP999());
    return points;
  }

  private static void addIfKnown(List<Point> points, double percentile, Double millis) {
    if (millis != null) {
      points.add(new Point(percentile, millis));
    }
  }

  /** Decades of 1/(1-p): 0 at 0%, 1 at 90%, 2 at 99%, ...; the 100% point is left out. */
  static double decades(double percentile) {
    return Math.log10(1.0 / (1.0 - percentile));
  }

  static String chart(List<Point> points) {
    return chart(points, List.of(), null);
  }

  /**
   * Latency by percentile of this run (red) and, if given, of its baseline (grey, dashed, named
   * {@code baselineName}) on the same axes.
   */
  static String chart(List<Point> points, List<Point> baseline, String baselineName) {
    var shown = points.stream().filter(p -> p.percentile() < 1.0).toList();
    var before = baseline.stream().filter(p -> p.percentile() < 1.0).toList();
    double maxDecades = 2;
    double maxMillis = 0;
    for (Point p : java.util.stream.Stream.concat(shown.stream(), before.stream()).toList()) {
      maxDecades = Math.max(maxDecades, Math.ceil(decades(p.percentile()) - 1e-9));
      maxMillis = Math.max(maxMillis, p.millis());
    }
    maxDecades = Math.min(maxDecades, MAX_DECADES);
    double yTop = niceCeiling(maxMillis);
    double w = WIDTH - LEFT - RIGHT;
    double hgt = HEIGHT - TOP - BOTTOM;
    var s = new StringBuilder();
    s.append(
            f(
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\"",
                WIDTH, HEIGHT))
        .append(f(" viewBox=\"0 0 %d %d\" font-size=\"12\">\n", WIDTH, HEIGHT))
        .append(f("<rect x=\"%d\" y=\"%d\" width=\"%.0f\" height=\"%.0f\"", LEFT, TOP, w, hgt))
        .append(" fill=\"none\" stroke=\"#999\"/>\n");
    for (int d = 0; d <= maxDecades; d++) {
      double x = LEFT + w * d / maxDecades;
      s.append(f("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", x, TOP + hgt + 16))
          .append(percentileLabel(d))
          .append("</text>\n");
    }
    for (int i = 0; i <= 4; i++) {
      double y = TOP + hgt - hgt * i / 4;
      s.append(f("<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">", LEFT - 6, y + 4))
          .append(Verdict.format(yTop * i / 4))
          .append("</text>\n");
    }
    s.append(f("<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">", LEFT + w / 2, HEIGHT - 6))
        .append("percentile</text>\n")
        .append(
            f(
                "<text x=\"14\" y=\"%.1f\" transform=\"rotate(-90 14 %.1f)\"",
                TOP + hgt / 2, TOP + hgt / 2))
        .append(" text-anchor=\"middle\">latency (ms)</text>\n");
    if (!before.isEmpty()) {
      s.append("<polyline id=\"baseline-curve\" fill=\"none\" stroke=\"#888\"")
          .append(" stroke-dasharray=\"6 4\" stroke-width=\"2\" points=\"");
      curve(s, before, maxDecades, yTop, w, hgt);
      s.append("\"/>\n")
          .append(f("<text x=\"%d\" y=\"%d\" fill=\"#888\">", LEFT + 8, TOP + 30))
          .append("- - ")
          .append(escape(baselineName == null ? "baseline" : baselineName))
          .append("</text>\n")
          .append(f("<text x=\"%d\" y=\"%d\" fill=\"#c0392b\">", LEFT + 8, TOP + 14))
          .append("&#8212; this run</text>\n");
    }
    if (!shown.isEmpty()) {
      s.append("<polyline fill=\"none\" stroke=\"#c0392b\" stroke-width=\"2\" points=\"");
      curve(s, shown, maxDecades, yTop, w, hgt);
      s.append("\"/>\n");
    }
    return s.append("</svg>").toString();
  }

  private static void curve(
      StringBuilder s, List<Point> points, double maxDecades, double yTop, double w, double hgt) {
    for (Point p : points) {
      double x = LEFT + w * Math.min(decades(p.percentile()), maxDecades) / maxDecades;
      double y = TOP + hgt - hgt * p.millis() / yTop;
      s.append(f("%.1f,%.1f ", x, y));
    }
  }

  /** 0 -> "0%", 1 -> "90%", 2 -> "99%", 3 -> "99.9%", ... */
  static String percentileLabel(int decades) {
    return switch (decades) {
      case 0 -> "0%";
      case 1 -> "90%";
      case 2 -> "99%";
      default -> "99." + "9".repeat(decades - 2) + "%";
    };
  }

  /**
   * A round number (1, 1.5, 2, 3, 4, 5, 6 or 8 times a power of ten) at least the value; 1 if none.
   */
  static double niceCeiling(double value) {
    if (value <= 0) {
      return 1;
    }
    double power = Math.pow(10, Math.floor(Math.log10(value)));
    for (double step : new double[] {1, 1.5, 2, 3, 4, 5, 6, 8, 10}) {
      if (step * power >= value) {
        return step * power;
      }
    }
    return 10 * power;
  }

  public static String escape(String text) {
    return text.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("\"", "&quot;");
  }

  private static String f(String format, Object... args) {
    return String.format(Locale.ROOT, format, args);
  }
}
