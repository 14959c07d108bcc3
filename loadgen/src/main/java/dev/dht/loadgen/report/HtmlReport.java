package dev.dht.loadgen.report;

import dev.dht.loadgen.engine.LoadConfig;
import dev.dht.loadgen.engine.RunResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * A self-contained HTML page ({@code --html}): the summary, an inline-SVG latency-by-percentile
 * chart with HdrHistogram's logarithmic percentile axis (x = log10(1/(1-p)): 0%, 90%, 99%, ...),
 * and the wrk2 text. No scripts, no external resources. Pure formatting.
 */
public final class HtmlReport {
  private static final int WIDTH = 860;
  private static final int HEIGHT = 420;
  private static final int LEFT = 70;
  private static final int RIGHT = 20;
  private static final int TOP = 20;
  private static final int BOTTOM = 50;

  private HtmlReport() {}

  /** One point of a percentile curve: x in decades of 1/(1-p), latency in ms. */
  record Point(double decades, double millis) {}

  public static String render(RunResult r, String wrk2Text) {
    LoadConfig c = r.config();
    String title =
        f("dht loadgen: %s at %.0f req/s", c.workload().cliName(), c.rate()).replace("&", "&amp;");
    StringBuilder h = new StringBuilder(16384);
    h.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>")
        .append(title)
        .append("</title>\n<style>body{font-family:sans-serif;margin:2em;color:#222}")
        .append("table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px 10px;")
        .append("text-align:right}th{background:#f3f3f3}pre{background:#f8f8f8;padding:1em}")
        .append("</style></head><body>\n<h1>")
        .append(title)
        .append("</h1>\n<p>")
        .append(escape(c.urlText()))
        .append(f(" &mdash; %d threads, %d connections, ", c.threads(), c.connections()))
        .append(
            f(
                "%s keys over %d, values of %d bytes",
                c.distribution().cliName(), c.keyspace(), c.valueSize()))
        .append("</p>\n<table><tr><th>target req/s</th><th>achieved req/s</th><th>requests</th>")
        .append("<th>errors</th><th>non-2xx</th><th>404</th><th>p50 ms</th><th>p99 ms</th>")
        .append("<th>p99.9 ms</th><th>max ms</th></tr>\n<tr>")
        .append(
            f("<td>%.0f</td><td>%.1f</td><td>%d</td>", c.rate(), r.achievedRate(), r.requests()))
        .append(f("<td>%d</td><td>%d</td><td>%d</td>", r.errors(), r.non2xx(), r.notFound()))
        .append(f("<td>%.3f</td><td>%.3f</td>", r.latencyMs(50), r.latencyMs(99)))
        .append(f("<td>%.3f</td><td>%.3f</td></tr></table>\n", r.latencyMs(99.9), r.maxMs()))
        .append("<h2>Latency by percentile</h2>\n")
        .append(chart(curve(r.latency()), curve(r.uncorrected())))
        .append("\n<h2>wrk2 output</h2>\n<pre>")
        .append(escape(wrk2Text))
        .append("</pre>\n</body></html>\n");
    return h.toString();
  }

  /** The percentile curve of a histogram (microseconds), without the 100% point (at infinity). */
  static List<Point> curve(Histogram h) {
    List<Point> points = new ArrayList<>();
    if (h.getTotalCount() == 0) {
      return points;
    }
    for (HistogramIterationValue v : h.percentiles(5)) {
      double p = v.getPercentileLevelIteratedTo() / 100.0;
      if (p < 1.0) {
        double millis = h.highestEquivalentValue(v.getValueIteratedTo()) / 1000.0;
        points.add(new Point(Math.log10(1.0 / (1.0 - p)), millis));
      }
    }
    return points;
  }

  static String chart(List<Point> corrected, List<Point> uncorrected) {
    double maxDecades = 2;
    double maxMillis = 0;
    for (Point p : corrected) {
      maxDecades = Math.max(maxDecades, Math.ceil(p.decades() - 1e-9));
      maxMillis = Math.max(maxMillis, p.millis());
    }
    maxDecades = Math.min(maxDecades, 7);
    double yTop = niceCeiling(maxMillis);
    double plotW = WIDTH - LEFT - RIGHT;
    double plotH = HEIGHT - TOP - BOTTOM;
    StringBuilder s = new StringBuilder();
    s.append(
            f(
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" ",
                WIDTH, HEIGHT))
        .append(f("viewBox=\"0 0 %d %d\" font-size=\"12\">\n", WIDTH, HEIGHT))
        .append(
            f("<rect x=\"%d\" y=\"%d\" width=\"%.0f\" height=\"%.0f\" ", LEFT, TOP, plotW, plotH))
        .append("fill=\"none\" stroke=\"#999\"/>\n");
    for (int d = 0; d <= maxDecades; d++) {
      double x = LEFT + plotW * d / maxDecades;
      s.append(f("<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%.1f\" ", x, TOP, x, TOP + plotH))
          .append("stroke=\"#eee\"/>\n")
          .append(f("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", x, TOP + plotH + 16))
          .append(percentileLabel(d))
          .append("</text>\n");
    }
    for (int i = 0; i <= 5; i++) {
      double y = TOP + plotH - plotH * i / 5;
      s.append(f("<line x1=\"%d\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" ", LEFT, y, LEFT + plotW, y))
          .append("stroke=\"#eee\"/>\n")
          .append(f("<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">", LEFT - 6, y + 4))
          .append(f("%s</text>\n", trim(yTop * i / 5)));
    }
    s.append(f("<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">", LEFT + plotW / 2, HEIGHT - 8))
        .append("percentile</text>\n")
        .append(
            f(
                "<text x=\"14\" y=\"%.1f\" transform=\"rotate(-90 14 %.1f)\" ",
                TOP + plotH / 2, TOP + plotH / 2))
        .append("text-anchor=\"middle\">latency (ms)</text>\n");
    s.append(polyline(uncorrected, maxDecades, yTop, plotW, plotH, "#aaa", "4 3"));
    s.append(polyline(corrected, maxDecades, yTop, plotW, plotH, "#c0392b", null));
    s.append(f("<text x=\"%d\" y=\"%d\" fill=\"#c0392b\">", LEFT + 10, TOP + 16))
        .append("&#8212; recorded (from intended send time)</text>\n")
        .append(f("<text x=\"%d\" y=\"%d\" fill=\"#888\">", LEFT + 10, TOP + 32))
        .append("- - uncorrected (from actual send time)</text>\n</svg>");
    return s.toString();
  }

  /** 0 → "0%", 1 → "90%", 2 → "99%", 3 → "99.9%", ... */
  static String percentileLabel(int decades) {
    if (decades == 0) {
      return "0%";
    }
    if (decades == 1) {
      return "90%";
    }
    if (decades == 2) {
      return "99%";
    }
    return "99." + "9".repeat(decades - 2) + "%";
  }

  private static String polyline(
      List<Point> points,
      double maxDecades,
      double yTop,
      double w,
      double h,
      String color,
      String dash) {
    if (points.isEmpty()) {
      return "";
    }
    StringBuilder s = new StringBuilder("<polyline fill=\"none\" stroke-width=\"2\" stroke=\"");
    s.append(color).append('"');
    if (dash != null) {
      s.append(" stroke-dasharray=\"").append(dash).append('"');
    }
    s.append(" points=\"");
    for (Point p : points) {
      double x = LEFT + w * Math.min(p.decades(), maxDecades) / maxDecades;
      double y = TOP + h - h * Math.min(p.millis(), yTop) / yTop;
      s.append(f("%.1f,%.1f ", x, y));
    }
    return s.append("\"/>\n").toString();
  }

  /** A round number (1, 1.5, 2, 2.5, 3, 4, 5, 6 or 8 times a power of ten) at least {@code v}. */
  static double niceCeiling(double v) {
    if (!(v > 0)) {
      return 1;
    }
    double magnitude = Math.pow(10, Math.floor(Math.log10(v)));
    for (double m : new double[] {1, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10}) {
      if (m * magnitude >= v) {
        return m * magnitude;
      }
    }
    return 10 * magnitude;
  }

  private static String trim(double v) {
    return v == Math.rint(v) ? Long.toString((long) v) : f("%.3g", v);
  }

  static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }

  private static String f(String format, Object... args) {
    return String.format(Locale.ROOT, format, args);
  }
}
