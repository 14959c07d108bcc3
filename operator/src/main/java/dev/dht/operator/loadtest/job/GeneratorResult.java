package dev.dht.operator.loadtest.job;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.HdrHistogram.Histogram;

/**
 * What one generator of a parallel test hands over ({@code GET /result}): its summary fields, its
 * measured window on its wall clock, and its latency histogram (microseconds, HdrHistogram's
 * compressed encoding in base64, read by {@link EncodedHistogram}). Pure.
 *
 * @param aborted why the generator's run was cut short on request, null if it ran its course
 */
public record GeneratorResult(
    int index,
    double targetRate,
    double achievedRate,
    long requests,
    long errors,
    long non2xx,
    long notFound,
    double durationSeconds,
    long windowStartMs,
    long windowEndMs,
    boolean warmedUp,
    Histogram histogram,
    String aborted) {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** IllegalArgumentException says why {@code json} is not a generator's result. */
  public static GeneratorResult parse(String json) {
    JsonNode root;
    try {
      root = JSON.readTree(json);
    } catch (Exception e) {
      throw new IllegalArgumentException("not JSON: " + e.getMessage());
    }
    if (root == null || !root.isObject()) {
      throw new IllegalArgumentException("not a JSON object");
    }
    for (String field : new String[] {"generator", "requests", "histogram", "windowStartMs"}) {
      if (root.path(field).isMissingNode() || root.path(field).isNull()) {
        throw new IllegalArgumentException("no '" + field + "'");
      }
    }
    Histogram histogram;
    try {
      histogram = EncodedHistogram.decode(root.path("histogram").asText());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("unreadable histogram: " + e.getMessage());
    }
    return new GeneratorResult(
        root.path("generator").asInt(),
        root.path("targetRate").asDouble(),
        root.path("achievedRate").asDouble(),
        root.path("requests").asLong(),
        root.path("errors").asLong(),
        root.path("non2xx").asLong(),
        root.path("notFound").asLong(),
        root.path("durationSeconds").asDouble(),
        root.path("windowStartMs").asLong(),
        root.path("windowEndMs").asLong(),
        root.path("warmedUp").asBoolean(true),
        histogram,
        root.path("aborted").isTextual() ? root.path("aborted").asText() : null);
  }

  /** Requests it sent and saw end (answered, failed, or cut at the end) per measured second. */
  public double attemptedRate() {
    return durationSeconds > 0 ? (requests + errors) / durationSeconds : 0;
  }

  /** Latency at a percentile (0..100), in milliseconds. */
  public double latencyMs(double percentile) {
    return millis(histogram, percentile);
  }

  public static double millis(Histogram h, double percentile) {
    return h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(percentile) / 1000.0;
  }
}
