package dev.dht.loadgen.cli;

import dev.dht.loadgen.engine.KeyDistribution;
import dev.dht.loadgen.engine.Workload;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Command-line value parsers: durations like wrk2's ("30", "30s", "500ms", "2m"), rates ("16k").
 */
final class OptionConverters {
  private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(ms|s|m|h)?");
  private static final Pattern RATE = Pattern.compile("(-?\\d+(?:\\.\\d+)?)\\s*([kK])?");

  private OptionConverters() {}

  static Duration parseDuration(String text) {
    Matcher m = DURATION.matcher(text.trim().toLowerCase(Locale.ROOT));
    if (!m.matches()) {
      throw new IllegalArgumentException(
          "bad duration '" + text + "' (expected e.g. 30, 30s, 500ms, 2m, 1h)");
    }
    double amount = Double.parseDouble(m.group(1));
    String unit = m.group(2) == null ? "s" : m.group(2);
    double millis =
        switch (unit) {
          case "ms" -> amount;
          case "s" -> amount * 1_000;
          case "m" -> amount * 60_000;
          default -> amount * 3_600_000;
        };
    return Duration.ofNanos(Math.round(millis * 1_000_000));
  }

  static double parseRate(String text) {
    Matcher m = RATE.matcher(text.trim());
    if (!m.matches()) {
      throw new IllegalArgumentException(
          "bad rate '" + text + "' (expected requests per second, e.g. 5000 or 5k)");
    }
    return Double.parseDouble(m.group(1)) * (m.group(2) == null ? 1 : 1000);
  }

  static final class DurationConverter implements ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
      try {
        return parseDuration(value);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }

  static final class RateConverter implements ITypeConverter<Double> {
    @Override
    public Double convert(String value) {
      try {
        return parseRate(value);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }

  static final class WorkloadConverter implements ITypeConverter<Workload> {
    @Override
    public Workload convert(String value) {
      try {
        return Workload.parse(value);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }

  static final class DistributionConverter implements ITypeConverter<KeyDistribution> {
    @Override
    public KeyDistribution convert(String value) {
      try {
        return KeyDistribution.parse(value);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }
}
