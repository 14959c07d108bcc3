package dev.dht.loadgen.report;

import dev.dht.loadgen.engine.LoadConfig;
import dev.dht.loadgen.engine.RunResult;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.HdrHistogram.Histogram;

/**
 * The machine-readable summary of a run ({@code --json}), and its compact form for the Kubernetes
 * termination message ({@code --termination-log}, at most 4 KiB). Latencies in milliseconds. Pure.
 */
public final class JsonSummary {
  static final int TERMINATION_LOG_LIMIT = 4096;

  private JsonSummary() {}

  /** The full summary, pretty enough to read. */
  public static String toJson(RunResult r) {
    return build(r, true, "\n  ", "\n");
  }

  /** One line, at most {@value #TERMINATION_LOG_LIMIT} bytes (details dropped if need be). */
  public static String toTerminationLog(RunResult r) {
    String full = build(r, true, "", "");
    if (full.getBytes(StandardCharsets.UTF_8).length <= TERMINATION_LOG_LIMIT) {
      return full;
    }
    return build(r, false, "", "");
  }

  private static String build(RunResult r, boolean details, String sep, String end) {
    LoadConfig c = r.config();
    Fields o = new Fields(sep);
    o.string("tool", "dht-loadgen");
    o.string("workload", c.workload().cliName());
    if (details) {
      o.string("url", c.urlText());
    }
    o.string("distribution", c.distribution().cliName());
    o.number("keyspace", c.keyspace());
    o.number("valueSize", c.valueSize());
    o.raw("ack", c.ack() == null ? "null" : c.ack().toString());
    o.raw("from", c.from() == null ? "null" : c.from().toString());
    o.number("connections", c.connections());
    o.number("threads", c.threads());
    o.decimal("targetRate", c.rate(), 2);
    o.decimal("achievedRate", r.achievedRate(), 2);
    o.decimal("durationSeconds", r.durationSeconds(), 3);
    o.decimal("warmupSeconds", c.warmup().toMillis() / 1000.0, 3);
    o.number("requests", r.requests());
    o.number("ok", r.ok());
    o.number("notFound", r.notFound());
    o.number("non2xx", r.non2xx());
    o.number("errors", r.errors());
    o.number("connectErrors", r.connectErrors());
    o.number("timeouts", r.timeouts() + r.dropped());
    o.number("ioErrors", r.ioErrors());
    if (details) {
      StringBuilder statuses = new StringBuilder("{");
      for (Map.Entry<Integer, Long> e : r.statusCounts().entrySet()) {
        if (statuses.length() > 1) {
          statuses.append(',');
        }
        statuses.append('"').append(e.getKey()).append("\":").append(e.getValue());
      }
      o.raw("statusCounts", statuses.append('}').toString());
    }
    o.raw("latencyMs", latency(r));
    o.raw(
        "p99ByThirdMs",
        r.p99ByThirdMs().stream()
            .map(v -> String.format(Locale.ROOT, "%.3f", v))
            .collect(Collectors.joining(",", "[", "]")));
    o.raw("warmedUp", Boolean.toString(r.warmedUp()));
    o.number("windowStartMs", r.windowStartMs());
    o.number("windowEndMs", r.windowEndMs());
    return "{" + o.text() + end + "}";
  }

  /**
   * What a generator that ran with others hands over for the merged result: the summary, which
   * generator it was, and its measured latency histogram (HdrHistogram's compressed encoding,
   * base64), which merges exactly with the others'; and why it was aborted, if it was (null: it was
   * not).
   */
  public static String toGeneratorResult(
      RunResult r, int generator, int generators, String aborted) {
    String summary = build(r, true, "", "");
    Fields o = new Fields("");
    o.number("generator", generator);
    o.number("generators", generators);
    if (aborted != null) {
      o.string("aborted", aborted);
    }
    o.string("histogram", encode(r.latency()));
    return summary.substring(0, summary.length() - 1) + "," + o.text() + "}";
  }

  public static String encode(Histogram h) {
    ByteBuffer buffer = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
    int length = h.encodeIntoCompressedByteBuffer(buffer);
    return Base64.getEncoder().encodeToString(Arrays.copyOf(buffer.array(), length));
  }

  private static String latency(RunResult r) {
    Fields l = new Fields("");
    l.decimal("p50", r.latencyMs(50), 3);
    l.decimal("p75", r.latencyMs(75), 3);
    l.decimal("p90", r.latencyMs(90), 3);
    l.decimal("p99", r.latencyMs(99), 3);
    l.decimal("p999", r.latencyMs(99.9), 3);
    l.decimal("p9999", r.latencyMs(99.99), 3);
    l.decimal("max", r.maxMs(), 3);
    l.decimal("mean", r.meanMs(), 3);
    return "{" + l.text() + "}";
  }

  public static String quote(String s) {
    StringBuilder b = new StringBuilder(s.length() + 2).append('"');
    for (int i = 0; i < s.length(); i++) {
      char ch = s.charAt(i);
      switch (ch) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        case '\t' -> b.append("\\t");
        default -> {
          if (ch < 0x20) {
            b.append(String.format(Locale.ROOT, "\\u%04x", (int) ch));
          } else {
            b.append(ch);
          }
        }
      }
    }
    return b.append('"').toString();
  }

  /** Comma-separated {@code "name":value} pairs. */
  private static final class Fields {
    private final StringBuilder b = new StringBuilder();
    private final String separator;

    Fields(String separator) {
      this.separator = separator;
    }

    void raw(String name, String json) {
      if (!b.isEmpty()) {
        b.append(',');
      }
      b.append(separator).append(quote(name)).append(':').append(json);
    }

    void string(String name, String value) {
      raw(name, quote(value));
    }

    void number(String name, long value) {
      raw(name, Long.toString(value));
    }

    void decimal(String name, double value, int digits) {
      if (Double.isNaN(value) || Double.isInfinite(value)) {
        raw(name, "null");
      } else {
        raw(name, String.format(Locale.ROOT, "%." + digits + "f", value));
      }
    }

    String text() {
      return b.toString();
    }
  }
}
