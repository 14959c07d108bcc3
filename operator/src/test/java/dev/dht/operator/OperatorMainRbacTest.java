package dev.dht.operator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.operator.backup.DhtBackup;
import dev.dht.operator.cluster.DhtCluster;
import dev.dht.operator.loadtest.DhtLoadTest;
import dev.dht.operator.rbac.ChartRbacOperator;
import dev.dht.operator.users.DhtUser;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * The operator as {@link OperatorMain} wires it (both controllers, leader election) started as the
 * chart's ServiceAccount, watching one namespace with the Lease in it (the chart with {@code
 * watchNamespaces}): its informers start, it takes the Lease and renews it. Its calls go to {@code
 * ChartRbacTest} with those of the other operator tests.
 */
class OperatorMainRbacTest {
  static final Duration TIMEOUT = Duration.ofSeconds(30);
  static final String IDENTITY = "operator-main-rbac-test";

  static {
    TestCrds.forceApply(
        DhtCluster.class,
        DhtLoadTest.class,
        DhtUser.class,
        DhtBackup.class,
        dev.dht.operator.backup.DhtScheduledBackup.class);
  }

  @Test
  void startsTakesAndRenewsTheLeaseUnderTheChartsRules() {
    String ns = "operatormainrbactest-" + UUID.randomUUID().toString().substring(0, 5);
    try (var run = new ChartRbacOperator.Run(OperatorMainRbacTest.class, ns)) {
      var settings =
          OperatorSettings.fromEnv(Map.of("WATCH_NAMESPACES", ns, "LEASE_NAMESPACE", ns));
      var operator =
          OperatorMain.create(
              settings,
              new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
              o ->
                  o.withKubernetesClient(run.operatorClient())
                      // as OperatorMain's, but losing the Lease at the stop must not end the test
                      // JVM
                      .withLeaderElectionConfiguration(
                          new LeaderElectionConfiguration(
                              settings.leaseName(),
                              settings.leaseNamespace(),
                              LeaderElectionConfiguration.LEASE_DURATION_DEFAULT_VALUE,
                              LeaderElectionConfiguration.RENEW_DEADLINE_DEFAULT_VALUE,
                              LeaderElectionConfiguration.RETRY_PERIOD_DEFAULT_VALUE,
                              IDENTITY,
                              null,
                              false)));
      try {
        operator.start();
        var lease = run.admin().leases().inNamespace(ns).withName(settings.leaseName());
        Lease taken =
            Awaitility.await("the Lease taken")
                .atMost(TIMEOUT)
                .until(
                    lease::get, l -> l != null && IDENTITY.equals(l.getSpec().getHolderIdentity()));
        Awaitility.await("the Lease renewed")
            .atMost(TIMEOUT)
            .until(
                () -> !lease.get().getSpec().getRenewTime().equals(taken.getSpec().getRenewTime()));
        Awaitility.await("every informer started")
            .atMost(TIMEOUT)
            .until(() -> operator.getRuntimeInfo().allEventSourcesAreHealthy());
        assertThat(operator.getRuntimeInfo().isStarted()).isTrue();
      } finally {
        operator.stop();
      }
    }
  }
}
