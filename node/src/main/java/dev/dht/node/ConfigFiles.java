package dev.dht.node;

import dev.dht.node.cluster.Replication;
import dev.dht.node.cluster.Topology;
import java.io.IOException;
import java.io.StringReader;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/** Parses the files a node re-reads while it runs (written by the operator's ConfigMap). */
public final class ConfigFiles {
  private ConfigFiles() {}

  /**
   * A membership file: {@code epoch N} (optional, default 0), {@code read-from next} (optional, in
   * a transition), then one member a line: its URL and, after a space, its state ({@code joining},
   * {@code leaving}; default normal). Blank lines and lines starting with '#' are ignored. A plain
   * list of URLs is a membership of epoch 0. A node missing from a membership of epoch 1 or more
   * (started before it is listed) takes itself as joining.
   */
  public static Topology topology(String content, String self) {
    long epoch = 0;
    boolean readNext = false;
    Map<String, Topology.State> members = new LinkedHashMap<>();
    for (String line : lines(content)) {
      String[] words = line.split("\\s+");
      if (words[0].equals("epoch")) {
        if (words.length != 2) {
          throw new IllegalArgumentException("expected 'epoch N', got '" + line + "'");
        }
        epoch = Long.parseLong(words[1]);
      } else if (words[0].equals("read-from")) {
        if (words.length != 2 || !(words[1].equals("next") || words[1].equals("current"))) {
          throw new IllegalArgumentException(
              "expected 'read-from next|current', got '" + line + "'");
        }
        readNext = words[1].equals("next");
      } else if (words.length == 1) {
        members.put(Topology.normalize(words[0]), Topology.State.NORMAL);
      } else if (words.length == 2) {
        members.put(
            Topology.normalize(words[0]),
            Topology.State.valueOf(words[1].toUpperCase(Locale.ROOT)));
      } else {
        throw new IllegalArgumentException("expected 'URL [joining|leaving]', got '" + line + "'");
      }
    }
    if (epoch > 0 && !members.containsKey(Topology.normalize(self))) {
      // a new node, started before the membership lists it: it waits, owning nothing, as a
      // joining member in its own view only; others send it nothing until they list it
      members.put(Topology.normalize(self), Topology.State.JOINING);
    }
    return Topology.of(epoch, members, readNext, self);
  }

  /** The member URLs of a membership file (whatever their state). */
  public static List<String> members(String content) {
    return lines(content).stream()
        .map(line -> line.split("\\s+")[0])
        .filter(word -> !word.equals("epoch") && !word.equals("read-from"))
        .toList();
  }

  private static List<String> lines(String content) {
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
