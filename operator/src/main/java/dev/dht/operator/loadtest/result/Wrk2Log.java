package dev.dht.operator.loadtest.result;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Reads the load generator's pod log: stdout carries the wrk2-style report (with the full
 * HdrHistogram percentile spectrum), stderr one progress line a second; the kubelet interleaves
 * both. Pure.
 */
public final class Wrk2Log {
  private static final Pattern PROGRESS = Pattern.compile("^\\[\\s*\\d+s\\].*");
  private static final Pattern SPECTRUM_LINE =
      Pattern.compile("^\\s*([0-9.]+)\\s+([0-9.]+)\\s+([0-9]+)\\s+(?:[0-9.]+|inf)\\s*$");

  /** One point of the spectrum: latency (ms) at a percentile level in [0, 1]. */
  public record Point(double percentile, double millis) {}

  private Wrk2Log() {}

  /**
   * The report block: from the last "Running ... test @ ..." line to "Transfer/sec:", progress
   * lines left out. Empty when the log does not hold a complete report.
   */
  public static Optional<String> report(String log) {
    if (log == null) {
      return Optional.empty();
    }
    List<String> lines = log.lines().toList();
    int start = -1;
    for (int i = lines.size() - 1; i >= 0; i--) {
      String line = lines.get(i);
      if (line.startsWith("Running ") && line.contains(" test @ ")) {
        start = i;
        break;
      }
    }
    if (start < 0) {
      return Optional.empty();
    }
    var block = new StringBuilder();
    for (int i = start; i < lines.size(); i++) {
      String line = lines.get(i);
      if (PROGRESS.matcher(line).matches()) {
        continue;
      }
      block.append(line).append('\n');
      if (line.startsWith("Transfer/sec:")) {
        return Optional.of(block.toString());
      }
    }
    return Optional.empty();
  }

  /** The points of the first "Detailed Percentile spectrum" (the recorded latency). */
  public static List<Point> spectrum(String report) {
    var points = new ArrayList<Point>();
    boolean inside = false;
    for (String line : report.lines().toList()) {
      if (line.contains("Detailed Percentile spectrum")) {
        inside = true;
        continue;
      }
      if (!inside) {
        continue;
      }
      if (line.startsWith("#[")) {
        break;
      }
      var matcher = SPECTRUM_LINE.matcher(line);
      if (matcher.matches()) {
        points.add(
            new Point(Double.parseDouble(matcher.group(2)), Double.parseDouble(matcher.group(1))));
      }
    }
    return points;
  }

  /** The last lines of a log, at most maxChars: the why of a failed run. */
  public static String tail(String log, int maxLines, int maxChars) {
    if (log == null) {
      return "";
    }
    List<String> lines = log.strip().lines().toList();
    String tail =
        String.join(" | ", lines.subList(Math.max(0, lines.size() - maxLines), lines.size()));
    return tail.length() <= maxChars ? tail : "..." + tail.substring(tail.length() - maxChars);
  }
}
