package dev.dht.loadgen.engine;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** How random keys are picked from the keyspace. */
public enum KeyDistribution {
  UNIFORM,
  /** Zipfian over key indexes: key 0 is the hottest. */
  ZIPFIAN;

  public String cliName() {
    return name().toLowerCase(Locale.ROOT);
  }

  KeyChooser chooser(long keyspace, double theta) {
    return switch (this) {
      case UNIFORM -> KeyChooser.uniform(keyspace);
      case ZIPFIAN -> new Zipfian(keyspace, theta);
    };
  }

  public static KeyDistribution parse(String text) {
    for (KeyDistribution d : values()) {
      if (d.cliName().equalsIgnoreCase(text.trim())) {
        return d;
      }
    }
    throw new IllegalArgumentException(
        "unknown distribution '"
            + text
            + "' (expected one of: "
            + Arrays.stream(values())
                .map(KeyDistribution::cliName)
                .collect(Collectors.joining(", "))
            + ")");
  }
}
