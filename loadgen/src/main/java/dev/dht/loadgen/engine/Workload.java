package dev.dht.loadgen.engine;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** What the generator sends. */
public enum Workload {
  /** PUT random keys. */
  PUT,
  /** GET random keys. */
  GET,
  /** GET with probability {@code readRatio}, otherwise PUT. */
  MIXED,
  /** PUT every key of the keyspace once, in order, then stop. */
  FILL;

  public String cliName() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static Workload parse(String text) {
    for (Workload w : values()) {
      if (w.cliName().equalsIgnoreCase(text.trim())) {
        return w;
      }
    }
    throw new IllegalArgumentException(
        "unknown workload '" + text + "' (expected one of: " + names() + ")");
  }

  static String names() {
    return Arrays.stream(values()).map(Workload::cliName).collect(Collectors.joining(", "));
  }
}
