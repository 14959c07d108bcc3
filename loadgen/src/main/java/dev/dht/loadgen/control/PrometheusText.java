package dev.dht.loadgen.control;

import dev.dht.loadgen.engine.LiveStats;
import java.util.Locale;
import org.HdrHistogram.Histogram;

/**
 * A generator's {@code /metrics}: where its run stands, in the Prometheus text format, labelled
 * with its index so that the generators of one test add up in a query. Latency is a Prometheus
 * histogram over every response so far (warm-up included), from intended send times. Pure.
 */
final class PrometheusText {
  private static final double[] BUCKETS_SECONDS = {
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10
  };

  private PrometheusText() {}

  static String of(RunControl control) {
    LiveStats live = control.live();
    String label = "{generator=\"" + control.share().index() + "\"}";
    var out = new StringBuilder(2048);
    metric(
        out,
        "dht_loadgen_running",
        "gauge",
        "1 while the load runs (warm-up or measured).",
        label,
        control.phase() == RunControl.Phase.RUNNING ? 1 : 0);
    metric(
        out,
        "dht_loadgen_measuring",
        "gauge",
        "1 once the measured window has begun.",
        label,
        live.measuring() ? 1 : 0);
    metric(
        out,
        "dht_loadgen_rate",
        "gauge",
        "Responses in the last second.",
        label,
        live.lastSecondRate());
    metric(
        out,
        "dht_loadgen_responses_total",
        "counter",
        "Responses, warm-up included.",
        label,
        live.allResponses());
    metric(
        out,
        "dht_loadgen_errors_total",
        "counter",
        "Requests without a response (connect errors, timeouts, I/O errors), warm-up included.",
        label,
        live.allFailures());
    metric(
        out,
        "dht_loadgen_non2xx_total",
        "counter",
        "Unexpected statuses, warm-up included.",
        label,
        live.allNon2xx());
    histogram(out, control.share().index(), live.all());
    return out.toString();
  }

  private static void metric(
      StringBuilder out, String name, String type, String help, String label, double value) {
    out.append("# HELP ").append(name).append(' ').append(help).append('\n');
    out.append("# TYPE ").append(name).append(' ').append(type).append('\n');
    out.append(name).append(label).append(' ').append(number(value)).append('\n');
  }

  private static void histogram(StringBuilder out, int index, Histogram h) {
    String name = "dht_loadgen_latency_seconds";
    out.append("# HELP ")
        .append(name)
        .append(" Latency from the intended send time (coordinated omission corrected).\n");
    out.append("# TYPE ").append(name).append(" histogram\n");
    for (double le : BUCKETS_SECONDS) {
      long count = h.getTotalCount() == 0 ? 0 : h.getCountBetweenValues(0, (long) (le * 1e6));
      bucket(out, name, index, number(le), count);
    }
    bucket(out, name, index, "+Inf", h.getTotalCount());
    String label = "{generator=\"" + index + "\"}";
    double sum = h.getTotalCount() == 0 ? 0 : h.getMean() * h.getTotalCount() / 1e6;
    out.append(name).append("_sum").append(label).append(' ').append(number(sum)).append('\n');
    out.append(name)
        .append("_count")
        .append(label)
        .append(' ')
        .append(h.getTotalCount())
        .append('\n');
  }

  private static void bucket(StringBuilder out, String name, int index, String le, long count) {
    out.append(name)
        .append("_bucket{generator=\"")
        .append(index)
        .append("\",le=\"")
        .append(le)
        .append("\"} ")
        .append(count)
        .append('\n');
  }

  private static String number(double value) {
    return value == Math.rint(value) && Math.abs(value) < 1e15
        ? Long.toString((long) value)
        : String.format(Locale.ROOT, "%.6g", value);
  }
}
