package dev.dht.node;

import dev.dht.node.replication.Replication;
import java.io.IOException;
import java.io.StringReader;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;

/** Parses the files a node re-reads while it runs (written by the operator's ConfigMap). */
public final class ConfigFiles {
  private ConfigFiles() {}

  /** A member list: one URL a line; blank lines and lines starting with '#' are ignored. */
  public static List<String> members(String content) {
    return Arrays.stream(content.split("\\R"))
        .map(String::strip)
        .filter(line -> !line.isEmpty() && !line.startsWith("#"))
        .toList();
  }

  /**
   * Settings as Java properties: {@code default-ack} and {@code default-from}; an absent key keeps
   * the flag's value ({@code fallback}).
   */
  public static Replication.Defaults defaults(String content, Replication.Defaults fallback) {
    Properties properties = new Properties();
    try {
      properties.load(new StringReader(content));
    } catch (IOException e) {
      throw new IllegalArgumentException("unreadable settings: " + e.getMessage(), e);
    }
    int ack = intProperty(properties, "default-ack", fallback.ack());
    int from = intProperty(properties, "default-from", fallback.from());
    if (ack < 0 || from < 0 || (ack > 0 && from > 0 && ack > from)) {
      throw new IllegalArgumentException(
          "settings need 0 <= default-ack <= default-from, got " + ack + "/" + from);
    }
    return new Replication.Defaults(ack, from);
  }

  private static int intProperty(Properties properties, String name, int fallback) {
    String value = properties.getProperty(name);
    if (value == null || value.isBlank()) {
      return fallback;
    }
    try {
      return Integer.parseInt(value.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + " is not a number: " + value, e);
    }
  }
}
