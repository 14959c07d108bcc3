package dev.dht.node.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every metric the Grafana dashboard of the chart (charts/dht/dashboards/dht.json) and its alerts
 * (templates/prometheusrule.yaml, but the operator's backup metrics) query exists in a real scrape
 * of a node: a cluster of 3 takes writes, reads and deletes, one node is stopped so that hints are
 * stored for it, and the JVM collects garbage once.
 */
class DashboardMetricsTest {
  private static final Path DASHBOARD = Path.of("..", "charts", "dht", "dashboards", "dht.json");
  private static final Path ALERTS =
      Path.of("..", "charts", "dht", "templates", "prometheusrule.yaml");
  private static final Pattern METRIC = Pattern.compile("\\b((?:dht|jvm)_[a-z0-9_]+)\\b");

  @TempDir Path root;

  @Test
  void everyMetricOfTheDashboardIsScraped() throws Exception {
    Set<String> queried = new TreeSet<>();
    Matcher m = METRIC.matcher(Files.readString(DASHBOARD));
    while (m.find()) {
      queried.add(m.group(1));
    }
    assertThat(queried).as("metrics queried by the dashboard").hasSizeGreaterThan(20);
    Set<String> alerting = new TreeSet<>();
    Matcher a = METRIC.matcher(Files.readString(ALERTS));
    while (a.find()) {
      if (!a.group(1).startsWith("dht_backup_")) { // the operator's
        alerting.add(a.group(1).replaceFirst("_(bucket|count)$", ""));
      }
    }
    assertThat(alerting).as("node metrics the alerts query").hasSizeGreaterThanOrEqualTo(9);

    try (var cluster = LocalCluster.start(root, 3, "--repair-interval-s", "0")) {
      var client = cluster.client(0);
      for (int i = 0; i < 20; i++) {
        assertThat(client.put("dash-" + i, "v" + i, 2, 3).status()).isEqualTo(201);
        assertThat(client.get("dash-" + i, 2, 3).status()).isEqualTo(200);
      }
      client.delete("dash-0", 2, 3);
      cluster.stop(2);
      assertThat(client.put("dash-hinted", "v", 2, 3).status()).isEqualTo(201);
      System.gc();
      Thread.sleep(500);

      String scrape = MetricsText.of(client).text();
      Set<String> scraped = new TreeSet<>();
      Matcher names = Pattern.compile("(?m)^([a-zA-Z_:][a-zA-Z0-9_:]*)[{ ]").matcher(scrape);
      while (names.find()) {
        scraped.add(names.group(1));
      }
      assertThat(scraped).as("a node's /metrics").containsAll(queried);
      Set<String> families = new TreeSet<>(scraped);
      scraped.forEach(n -> families.add(n.replaceFirst("_(bucket|count)$", "")));
      assertThat(families).as("a node's /metrics, for the alerts").containsAll(alerting);
    }
  }
}
