package dev.dht.operator.loadtest.job;

import dev.dht.operator.loadtest.DhtLoadTestSpec;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.regex.Pattern;

/**
 * Durations as the CRD accepts them (Go-style: 60s, 2m, 1m30s, 1.5s, 500ms, 1h) and as the load
 * generator accepts them (one number and one unit). Pure.
 */
public final class GoDuration {
  private static final Pattern WHOLE = Pattern.compile(DhtLoadTestSpec.DURATION_PATTERN);
  private static final Pattern PART = Pattern.compile("([0-9]+(?:\\.[0-9]+)?)(ms|s|m|h)");

  private GoDuration() {}

  public static Duration parse(String text) {
    if (text == null || !WHOLE.matcher(text).matches()) {
      throw new IllegalArgumentException("bad duration '" + text + "' (e.g. 60s, 2m, 1m30s)");
    }
    var matcher = PART.matcher(text);
    BigDecimal millis = BigDecimal.ZERO;
    while (matcher.find()) {
      long unitMillis =
          switch (matcher.group(2)) {
            case "ms" -> 1L;
            case "s" -> 1_000L;
            case "m" -> 60_000L;
            default -> 3_600_000L;
          };
      millis =
          millis.add(new BigDecimal(matcher.group(1)).multiply(BigDecimal.valueOf(unitMillis)));
    }
    return Duration.ofMillis(millis.setScale(0, RoundingMode.HALF_UP).longValueExact());
  }

  /** The load generator's form: whole seconds as "90s", anything finer as "1500ms". */
  static String toLoadgenArg(Duration duration) {
    long millis = duration.toMillis();
    return millis % 1000 == 0 ? millis / 1000 + "s" : millis + "ms";
  }
}
