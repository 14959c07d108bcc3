package dev.dht.node.it;

import java.net.http.HttpRequest.BodyPublishers;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A node's Prometheus text, and the values in it. */
public record MetricsText(String text) {
  public static MetricsText of(DhtClient client) {
    return new MetricsText(client.send("GET", "/metrics", BodyPublishers.noBody()).text());
  }

  /**
   * The sum of the samples of {@code name} whose labels contain {@code label} (e.g. {@code
   * traffic="client"}; empty: all); -1 if there is none.
   */
  public double value(String name, String label) {
    Matcher m =
        Pattern.compile("(?m)^" + Pattern.quote(name) + "(\\{[^}]*})? ([0-9.eE+-]+|NaN)$")
            .matcher(text);
    double sum = 0;
    boolean found = false;
    while (m.find()) {
      if (m.group(1) == null ? label.isEmpty() : m.group(1).contains(label)) {
        sum += Double.parseDouble(m.group(2));
        found = true;
      }
    }
    return found ? sum : -1;
  }
}
