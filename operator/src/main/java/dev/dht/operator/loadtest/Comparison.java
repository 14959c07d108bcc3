package dev.dht.operator.loadtest;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.dht.operator.loadtest.DhtLoadTestStatus.Results;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import lombok.AccessLevel;
import lombok.AllArgsConstructor;
import lombok.Builder;
import lombok.Data;
import lombok.NoArgsConstructor;

/**
 * A run against its baseline (an earlier DhtLoadTest): per metric, both values and the change.
 * Latencies are better when lower, the achieved rate when higher. Pure.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Data
@Builder(toBuilder = true)
@NoArgsConstructor
@AllArgsConstructor(access = AccessLevel.PRIVATE)
public class Comparison {
  @JsonPropertyDescription("The DhtLoadTest compared with.")
  private String baseline;

  @JsonPropertyDescription("achievedRate, p50, p99, p99.9 and max: baseline, this run, change.")
  @Builder.Default
  private List<Row> rows = new ArrayList<>();

  /** One metric: both values and the change in percent (positive: this run's value is higher). */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @Data
  @Builder(toBuilder = true)
  @NoArgsConstructor
  @AllArgsConstructor(access = AccessLevel.PRIVATE)
  public static class Row {
    @JsonPropertyDescription("achievedRate (req/s) or a latency percentile (ms).")
    private String metric;

    @JsonPropertyDescription("The baseline's value.")
    private Double baseline;

    @JsonPropertyDescription("This run's value.")
    private Double current;

    @JsonPropertyDescription("(current - baseline) / baseline, in percent.")
    private Double changePercent;

    @JsonPropertyDescription("For people: e.g. '2.78x better', '12% worse', 'same'.")
    private String summary;

    Row(String metric, Double baseline, Double current, boolean higherIsBetter) {
      this.metric = metric;
      this.baseline = baseline;
      this.current = current;
      if (baseline != null && current != null && baseline > 0) {
        this.changePercent = round((current - baseline) / baseline * 100);
        this.summary = summary(baseline, current, higherIsBetter);
      }
    }

    /** "same" within 1%, "12% worse" below a factor of 1.5, else "2.78x better". */
    private static String summary(double baseline, double current, boolean higherIsBetter) {
      double change = Math.abs(current - baseline) / baseline;
      if (change < 0.01) {
        return "same";
      }
      boolean better = higherIsBetter == current > baseline;
      double factor = Math.max(current, baseline) / Math.min(current, baseline);
      String word = better ? "better" : "worse";
      return current <= 0 || factor < 1.5
          ? Math.round(change * 100) + "% " + word
          : plain(round(factor)) + "x " + word;
    }

    /**
     * Shortest plain form, as the results' messages write numbers ({@code Verdict.format}): 2.78,
     * 2, never 1.0E-4. Repeated here: the resource's package depends on no other of the load test.
     */
    private static String plain(double value) {
      return BigDecimal.valueOf(value)
          .round(new MathContext(6))
          .stripTrailingZeros()
          .toPlainString();
    }
  }

  public static Comparison of(String baselineName, Results baseline, Results current) {
    var c = new Comparison();
    c.baseline = baselineName;
    c.rows.add(
        new Row("achievedRate", baseline.getAchievedRate(), current.getAchievedRate(), true));
    c.rows.add(latency("p50", DhtLoadTestStatus.Latency::getP50, baseline, current));
    c.rows.add(latency("p99", DhtLoadTestStatus.Latency::getP99, baseline, current));
    c.rows.add(latency("p99.9", DhtLoadTestStatus.Latency::getP999, baseline, current));
    c.rows.add(latency("max", DhtLoadTestStatus.Latency::getMax, baseline, current));
    return c;
  }

  private static Row latency(
      String name,
      Function<DhtLoadTestStatus.Latency, Double> value,
      Results baseline,
      Results current) {
    return new Row(name, latencyOf(baseline, value), latencyOf(current, value), false);
  }

  private static Double latencyOf(
      Results results, Function<DhtLoadTestStatus.Latency, Double> value) {
    return results.getLatencyMs() == null ? null : value.apply(results.getLatencyMs());
  }

  /** The row of {@code metric}, if compared. */
  public Row row(String metric) {
    return rows.stream().filter(r -> r.metric.equals(metric)).findFirst().orElse(null);
  }

  private static double round(double value) {
    return Math.round(value * 100) / 100.0;
  }
}
