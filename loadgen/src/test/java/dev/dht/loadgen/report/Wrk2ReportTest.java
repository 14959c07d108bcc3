package dev.dht.loadgen.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.dht.loadgen.engine.LatencyRecorder;
import dev.dht.loadgen.engine.Results;
import dev.dht.loadgen.engine.RunResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Reads our report the way scripts read wrk2's output, and checks what they would get. */
class Wrk2ReportTest {
  private final RunResult result = Results.uniformOneToTenMillis();
  private final String text = Wrk2Report.format(result, false);
  private final List<String> lines = text.lines().toList();

  /** A line of the detailed spectrum. */
  record SpectrumLine(double valueMs, double percentile, long totalCount, double inverse) {}

  /** The wrk2-output parser: the spectrum lines between its header and the "#[Mean" footer. */
  static List<SpectrumLine> parseSpectrum(List<String> lines) {
    int header = lines.indexOf("       Value   Percentile   TotalCount 1/(1-Percentile)");
    assertThat(header).as("spectrum header").isPositive();
    assertThat(lines.get(header - 1)).isEqualTo("  Detailed Percentile spectrum:");
    assertThat(lines.get(header + 1)).isEmpty();
    List<SpectrumLine> out = new ArrayList<>();
    for (int i = header + 2; !lines.get(i).startsWith("#[Mean"); i++) {
      String[] f = lines.get(i).trim().split("\\s+");
      assertThat(f).as(lines.get(i)).hasSize(4);
      out.add(
          new SpectrumLine(
              Double.parseDouble(f[0]),
              Double.parseDouble(f[1]),
              Long.parseLong(f[2]),
              f[3].equals("inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(f[3])));
    }
    return out;
  }

  /** The wrk2-output parser: "Latency Distribution" lines, percentile → milliseconds. */
  static Map<Double, Double> parseDistribution(List<String> lines) {
    int start = lines.indexOf("  Latency Distribution (HdrHistogram - Recorded Latency)");
    assertThat(start).isPositive();
    Pattern p = Pattern.compile("^\\s*(\\d+\\.\\d{3})%\\s+(\\d+\\.\\d{2})(us|ms|s|m|h)$");
    Map<Double, Double> out = new LinkedHashMap<>();
    for (int i = start + 1; i <= start + 8; i++) {
      Matcher m = p.matcher(lines.get(i));
      assertThat(m.matches()).as(lines.get(i)).isTrue();
      double v = Double.parseDouble(m.group(2));
      double ms =
          switch (m.group(3)) {
            case "us" -> v / 1000;
            case "ms" -> v;
            case "s" -> v * 1000;
            case "m" -> v * 60_000;
            default -> v * 3_600_000;
          };
      out.put(Double.parseDouble(m.group(1)), ms);
    }
    return out;
  }

  @Test
  void spectrumParsesAndIsMonotonic() {
    List<SpectrumLine> spectrum = parseSpectrum(lines);

    assertThat(spectrum).hasSizeGreaterThan(50);
    for (int i = 1; i < spectrum.size(); i++) {
      SpectrumLine a = spectrum.get(i - 1);
      SpectrumLine b = spectrum.get(i);
      assertThat(b.valueMs()).isGreaterThanOrEqualTo(a.valueMs());
      assertThat(b.percentile()).isGreaterThanOrEqualTo(a.percentile());
      assertThat(b.totalCount()).isGreaterThanOrEqualTo(a.totalCount());
      assertThat(b.inverse()).isGreaterThanOrEqualTo(a.inverse());
    }
    SpectrumLine first = spectrum.getFirst();
    SpectrumLine last = spectrum.getLast();
    assertThat(first.valueMs()).isEqualTo(0.001);
    assertThat(first.percentile()).isEqualTo(0.0);
    assertThat(first.inverse()).isEqualTo(1.0);
    assertThat(last.percentile()).isEqualTo(1.0);
    assertThat(last.inverse()).isInfinite();
    assertThat(last.totalCount()).isEqualTo(10_000);
    assertThat(last.valueMs()).isCloseTo(10.0, within(0.01));
  }

  @Test
  void spectrumValuesMatchThePercentiles() {
    for (SpectrumLine l : parseSpectrum(lines)) {
      if (l.percentile() > 0 && l.percentile() < 1) {
        // Values are 1..10000 us: the p-th percentile is about p * 10 ms (3 significant digits).
        assertThat(l.valueMs()).isCloseTo(l.percentile() * 10.0, within(0.01 + l.valueMs() / 500));
        // The percentile is printed rounded to 1e-6, which the inverse amplifies.
        double inverse = 1 / (1 - l.percentile());
        assertThat(l.inverse()).isCloseTo(inverse, within(0.01 + 1e-6 * inverse * inverse));
        assertThat((double) l.totalCount()).isCloseTo(l.percentile() * 10_000, within(12.0));
      }
    }
  }

  @Test
  void footerHasMeanStdDeviationMaxAndTotalCount() {
    Matcher mean =
        Pattern.compile("#\\[Mean    = +([\\d.]+), StdDeviation   = +([\\d.]+)\\]").matcher(text);
    Matcher max =
        Pattern.compile("#\\[Max     = +([\\d.]+), Total count    = +(\\d+)\\]").matcher(text);
    Matcher buckets =
        Pattern.compile("#\\[Buckets = +(\\d+), SubBuckets     = +(\\d+)\\]").matcher(text);
    assertThat(mean.find() && max.find() && buckets.find()).isTrue();

    assertThat(Double.parseDouble(mean.group(1))).isCloseTo(5.0, within(0.01));
    assertThat(Double.parseDouble(mean.group(2))).isCloseTo(2.887, within(0.01));
    assertThat(Double.parseDouble(max.group(1))).isCloseTo(10.0, within(0.01));
    assertThat(Long.parseLong(max.group(2))).isEqualTo(10_000);
    // Same histogram shape as wrk2's (1 us .. 1 day, 3 digits).
    assertThat(buckets.group(1)).isEqualTo("27");
    assertThat(buckets.group(2)).isEqualTo("2048");
    assertThat(text).contains(Wrk2Report.RULE + "\n  10000 requests in 20.00s");
  }

  @Test
  void latencyDistributionLinesLookLikeWrk2s() {
    Map<Double, Double> d = parseDistribution(lines);

    assertThat(d.keySet()).containsExactly(50.0, 75.0, 90.0, 99.0, 99.9, 99.99, 99.999, 100.0);
    assertThat(d.get(50.0)).isCloseTo(5.0, within(0.01));
    assertThat(d.get(99.0)).isCloseTo(9.9, within(0.01));
    assertThat(lines).contains(" 50.000%    5.00ms", "100.000%   10.01ms");
  }

  @Test
  void totalsAtTheEnd() {
    assertThat(lines.getFirst())
        .isEqualTo("Running 20s test @ http://127.0.0.1:8080,http://127.0.0.1:8081");
    assertThat(lines.get(1)).isEqualTo("  2 threads and 64 connections");
    assertThat(lines).contains("  Socket errors: connect 3, read 1, write 0, timeout 2");
    assertThat(lines).contains("  Non-2xx or 3xx responses: 10");
    assertThat(lines).contains("Requests/sec:    500.00");
    assertThat(lines.getLast()).startsWith("Transfer/sec:");
    assertThat(lines.stream().filter(l -> l.startsWith("    Latency")).findFirst().orElseThrow())
        .matches("    Latency +5\\.00ms +2\\.89ms +10\\.01ms +\\d+\\.\\d\\d%");
  }

  @Test
  void uncorrectedBlockOnlyOnRequest() {
    assertThat(text).doesNotContain("Uncorrected Latency");
    assertThat(Wrk2Report.format(result, true))
        .contains(
            "  Latency Distribution (HdrHistogram - Uncorrected Latency (measured without taking"
                + " delayed starts into account))");
  }

  @Test
  void unitsAreFormattedLikeWrk2() {
    assertThat(Wrk2Report.formatTimeMicros(1010)).isEqualTo("1.01ms");
    assertThat(Wrk2Report.formatTimeMicros(490.51)).isEqualTo("490.51us");
    assertThat(Wrk2Report.formatTimeMicros(999_000)).isEqualTo("999.00ms");
    assertThat(Wrk2Report.formatTimeMicros(2_310_000)).isEqualTo("2.31s");
    assertThat(Wrk2Report.formatTimeMicros(90_000_000)).isEqualTo("1.50m");
    assertThat(Wrk2Report.formatBinary(22.43 * 1024 * 1024)).isEqualTo("22.43M");
    assertThat(Wrk2Report.formatMetric(1040)).isEqualTo("1.04k");
    assertThat(Wrk2Report.formatTimeSeconds(30)).isEqualTo("30s");
    assertThat(Wrk2Report.units("1.01ms", 10)).isEqualTo("    1.01ms");
    assertThat(Wrk2Report.units("2.31s", 10)).isEqualTo("    2.31s ");
    assertThat(Wrk2Report.units("163.12", 10)).isEqualTo("  163.12  ");
  }

  @Test
  void anEmptyRunStillHasAllBlocks() {
    RunResult r = Results.uniformOneToTenMillis();
    RunResult empty =
        new RunResult(
            r.config(),
            20,
            0,
            0,
            0,
            0,
            100,
            0,
            0,
            0,
            0,
            new java.util.TreeMap<>(),
            LatencyRecorder.newHistogram(),
            LatencyRecorder.newHistogram(),
            List.of(),
            List.of(0.0, 0.0, 0.0),
            0,
            0);
    List<String> l = Wrk2Report.format(empty, false).lines().toList();
    assertThat(parseSpectrum(l)).isEmpty();
    assertThat(l).contains("#[Max     =        0.000, Total count    =            0]");
    assertThat(l).contains("  Socket errors: connect 100, read 0, write 0, timeout 0");
  }
}
