package dev.dht.loadgen.report;

import dev.dht.loadgen.engine.LoadConfig;
import dev.dht.loadgen.engine.RunResult;
import java.util.List;
import java.util.Locale;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * The end-of-run text in wrk2's layout ({@code wrk -L}), so the tools that parse wrk2 output read
 * ours: the latency summary, the HdrHistogram percentile spectrum in HdrHistogram_c's CLASSIC
 * format (values in milliseconds), and the request totals. Pure formatting.
 */
public final class Wrk2Report {
  static final String RULE = "----------------------------------------------------------";
  private static final double[] SUMMARY_PERCENTILES = {
    50.0, 75.0, 90.0, 99.0, 99.9, 99.99, 99.999, 100.0
  };
  private static final int TICKS_PER_HALF_DISTANCE = 5;
  private static final double MICROS_PER_MILLI = 1000.0;

  private Wrk2Report() {}

  public static String format(RunResult r, boolean withUncorrected) {
    LoadConfig c = r.config();
    StringBuilder out = new StringBuilder(8192);
    out.append("Running ")
        .append(formatTimeSeconds(c.duration().toSeconds()))
        .append(" test @ ")
        .append(c.urlText())
        .append('\n');
    out.append(f("  %d threads and %d connections\n", c.threads(), c.connections()));
    out.append(
        f(
            "  workload %s, %s keys over %d, target %.0f req/s, warm-up %ds (excluded)\n",
            c.workload().cliName(),
            c.distribution().cliName(),
            c.keyspace(),
            c.rate(),
            c.warmup().toSeconds()));
    out.append(f("  Thread Stats%6s%11s%8s%12s\n", "Avg", "Stdev", "Max", "+/- Stdev"));
    latencyStats(out, r.latency());
    rateStats(out, r.threadRateSamples());
    latencyBlock(out, r.latency(), "Recorded Latency");
    out.append(RULE).append('\n');
    if (withUncorrected) {
      out.append('\n');
      latencyBlock(
          out,
          r.uncorrected(),
          "Uncorrected Latency (measured without taking delayed starts into account)");
      out.append(RULE).append('\n');
    }
    long micros = Math.round(r.durationSeconds() * 1e6);
    out.append(
        f(
            "  %d requests in %s, %sB read\n",
            r.requests(), formatTimeMicros(micros), formatBinary(r.bodyBytes())));
    if (r.errors() > 0) {
      out.append(
          f(
              "  Socket errors: connect %d, read %d, write %d, timeout %d\n",
              r.connectErrors(), r.ioErrors(), 0, r.timeouts() + r.dropped()));
    }
    if (r.non2xx() > 0) {
      out.append(f("  Non-2xx or 3xx responses: %d\n", r.non2xx()));
    }
    if (r.notFound() > 0) {
      out.append(f("  404 (not found) responses: %d\n", r.notFound()));
    }
    out.append(f("Requests/sec: %9.2f\n", r.achievedRate()));
    double bytesPerSecond = r.durationSeconds() > 0 ? r.bodyBytes() / r.durationSeconds() : 0;
    out.append(f("Transfer/sec: %10sB\n", formatBinary(bytesPerSecond)));
    return out.toString();
  }

  /** The "Latency Distribution" lines followed by the detailed spectrum. */
  static void latencyBlock(StringBuilder out, Histogram h, String description) {
    out.append("  Latency Distribution (HdrHistogram - ").append(description).append(")\n");
    for (double p : SUMMARY_PERCENTILES) {
      long v = h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(p);
      out.append(f("%7.3f%%", p)).append(units(formatTimeMicros(v), 10)).append('\n');
    }
    out.append("\n  Detailed Percentile spectrum:\n");
    spectrum(out, h);
  }

  /** HdrHistogram_c {@code hdr_percentiles_print(h, 5, 1000.0, CLASSIC)}. */
  static void spectrum(StringBuilder out, Histogram h) {
    out.append(
        f("%12s %12s %12s %12s\n\n", "Value", "Percentile", "TotalCount", "1/(1-Percentile)"));
    if (h.getTotalCount() > 0) {
      for (HistogramIterationValue v : h.percentiles(TICKS_PER_HALF_DISTANCE)) {
        double value = h.highestEquivalentValue(v.getValueIteratedTo()) / MICROS_PER_MILLI;
        double p = v.getPercentileLevelIteratedTo() / 100.0;
        long total = v.getTotalCountToThisValue();
        if (p < 1.0) {
          out.append(f("%12.3f %12f %12d %12.2f\n", value, p, total, 1.0 / (1.0 - p)));
        } else {
          out.append(f("%12.3f %12f %12d %12s\n", value, 1.0, total, "inf"));
        }
      }
    }
    boolean empty = h.getTotalCount() == 0;
    double mean = empty ? 0 : h.getMean() / MICROS_PER_MILLI;
    double stddev = empty ? 0 : h.getStdDeviation() / MICROS_PER_MILLI;
    double max = empty ? 0 : h.getMaxValue() / MICROS_PER_MILLI;
    out.append(f("#[Mean    = %12.3f, StdDeviation   = %12.3f]\n", mean, stddev));
    out.append(f("#[Max     = %12.3f, Total count    = %12d]\n", max, h.getTotalCount()));
    out.append(
        f(
            "#[Buckets = %12d, SubBuckets     = %12d]\n",
            bucketCount(h.getHighestTrackableValue(), subBucketCount(h)), subBucketCount(h)));
  }

  private static void latencyStats(StringBuilder out, Histogram h) {
    boolean empty = h.getTotalCount() == 0;
    double mean = empty ? 0 : h.getMean();
    double sd = empty ? 0 : h.getStdDeviation();
    long within = 0;
    if (!empty) {
      for (HistogramIterationValue v : h.recordedValues()) {
        if (Math.abs(h.medianEquivalentValue(v.getValueIteratedTo()) - mean) <= sd) {
          within += v.getCountAtValueIteratedTo();
        }
      }
    }
    double pct = empty ? 0 : 100.0 * within / h.getTotalCount();
    out.append(f("    %-10s", "Latency"))
        .append(units(formatTimeMicros(mean), 8))
        .append(units(formatTimeMicros(sd), 10))
        .append(units(formatTimeMicros(empty ? 0 : h.getMaxValue()), 9))
        .append(f("%8.2f%%\n", pct));
  }

  private static void rateStats(StringBuilder out, List<Double> samples) {
    double mean = samples.stream().mapToDouble(Double::doubleValue).average().orElse(0);
    double max = samples.stream().mapToDouble(Double::doubleValue).max().orElse(0);
    double var =
        samples.size() < 2
            ? 0
            : samples.stream().mapToDouble(s -> (s - mean) * (s - mean)).sum()
                / (samples.size() - 1);
    double sd = Math.sqrt(var);
    long within = samples.stream().filter(s -> Math.abs(s - mean) <= sd).count();
    double pct = samples.isEmpty() ? 0 : 100.0 * within / samples.size();
    out.append(f("    %-10s", "Req/Sec"))
        .append(units(formatMetric(mean), 8))
        .append(units(formatMetric(sd), 10))
        .append(units(formatMetric(max), 9))
        .append(f("%8.2f%%\n", pct));
  }

  /** wrk2's {@code print_units}: right-aligned, with room kept for a missing unit suffix. */
  static String units(String text, int width) {
    int pad = 2;
    int len = text.length();
    if (len > 0 && Character.isLetter(text.charAt(len - 1))) {
      pad--;
    }
    if (len > 1 && Character.isLetter(text.charAt(len - 2))) {
      pad--;
    }
    int w = width - pad;
    String clipped = text.length() > w ? text.substring(0, w) : text;
    return " ".repeat(w - clipped.length()) + clipped + "  ".substring(0, pad);
  }

  static String formatTimeMicros(double micros) {
    if (micros >= 1_000_000.0) {
      return formatUnits(micros / 1_000_000.0, 60, "s", new String[] {"m", "h"}, 2);
    }
    return formatUnits(micros, 1000, "us", new String[] {"ms", "s"}, 2);
  }

  static String formatTimeSeconds(double seconds) {
    return formatUnits(seconds, 60, "s", new String[] {"m", "h"}, 0);
  }

  static String formatBinary(double n) {
    return formatUnits(n, 1024, "", new String[] {"K", "M", "G", "T", "P"}, 2);
  }

  static String formatMetric(double n) {
    return formatUnits(n, 1000, "", new String[] {"k", "M", "G", "T", "P"}, 2);
  }

  /** wrk2's {@code format_units}: scale down while above 85% of the next unit. */
  private static String formatUnits(
      double n, int scale, String base, String[] units, int precision) {
    double amount = n;
    String unit = base;
    for (int i = 0; i + 1 < units.length && amount >= scale * 0.85; i++) {
      amount /= scale;
      unit = units[i];
    }
    return String.format(Locale.ROOT, "%." + precision + "f%s", amount, unit);
  }

  private static int subBucketCount(Histogram h) {
    double largestSingleUnitResolution = 2 * Math.pow(10, h.getNumberOfSignificantValueDigits());
    int magnitude = (int) Math.ceil(Math.log(largestSingleUnitResolution) / Math.log(2));
    return 1 << Math.max(magnitude, 1);
  }

  /** Buckets needed to cover {@code highest}, as HdrHistogram computes it (unit magnitude 0). */
  private static int bucketCount(long highest, int subBucketCount) {
    long smallestUntrackable = subBucketCount;
    int buckets = 1;
    while (smallestUntrackable <= highest) {
      if (smallestUntrackable > Long.MAX_VALUE / 2) {
        return buckets + 1;
      }
      smallestUntrackable <<= 1;
      buckets++;
    }
    return buckets;
  }

  private static String f(String format, Object... args) {
    return String.format(Locale.ROOT, format, args);
  }
}
