package dev.dht.contract;

import java.io.IOException;
import java.io.StringReader;
import java.util.Properties;

/**
 * The settings file the operator publishes in a cluster's ConfigMap and every node re-reads: Java
 * properties {@code default-ack} and {@code default-from}. A value that is absent (null here) or
 * blank leaves the node's flag in force.
 */
public record SettingsFile(Integer defaultAck, Integer defaultFrom) {
  private static final String ACK = "default-ack";
  private static final String FROM = "default-from";

  public String write() {
    var out = new StringBuilder();
    if (defaultAck != null) {
      out.append(ACK).append('=').append(defaultAck).append('\n');
    }
    if (defaultFrom != null) {
      out.append(FROM).append('=').append(defaultFrom).append('\n');
    }
    return out.toString();
  }

  /** The file's content; an {@link IllegalArgumentException} names a value it cannot read. */
  public static SettingsFile parse(String content) {
    Properties properties = new Properties();
    try {
      properties.load(new StringReader(content));
    } catch (IOException e) {
      throw new IllegalArgumentException("unreadable settings: " + e.getMessage(), e);
    }
    return new SettingsFile(number(properties, ACK), number(properties, FROM));
  }

  private static Integer number(Properties properties, String name) {
    String value = properties.getProperty(name);
    if (value == null || value.isBlank()) {
      return null;
    }
    try {
      return Integer.parseInt(value.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + " is not a number: " + value, e);
    }
  }
}
