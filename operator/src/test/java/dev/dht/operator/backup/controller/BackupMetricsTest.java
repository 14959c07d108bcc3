package dev.dht.operator.backup.controller;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

class BackupMetricsTest {
  @Test
  void aClustersFailureCountersStartAtZeroOnceOneOfItsBackupsIsSeen() {
    var registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    var metrics = new BackupMetrics(registry);

    metrics.seen("shop", "orders");
    assertThat(registry.scrape())
        .contains("dht_backup_failed_total{cluster=\"orders\",namespace=\"shop\"} 0.0")
        .contains(
            "dht_backup_verification_failed_total{cluster=\"orders\",namespace=\"shop\"} 0.0");

    metrics.failed("shop", "orders");
    metrics.seen("shop", "orders");
    assertThat(registry.scrape())
        .contains("dht_backup_failed_total{cluster=\"orders\",namespace=\"shop\"} 1.0");
  }
}
