package dev.dht.operator;

import dev.dht.operator.backup.controller.DhtBackupReconciler;
import dev.dht.operator.backup.controller.DhtScheduledBackupReconciler;
import dev.dht.operator.cluster.DhtClusterReconciler;
import dev.dht.operator.cluster.NetworkPolicyDependentFactory;
import dev.dht.operator.loadtest.controller.DhtLoadTestReconciler;
import dev.dht.operator.loadtest.site.ReportSite;
import dev.dht.operator.scaling.NodeAdmin;
import dev.dht.operator.users.DhtUserReconciler;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.config.ConfigurationServiceOverrider;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import io.javaoperatorsdk.operator.monitoring.micrometer.MicrometerMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Entry point of the operator image. */
public final class OperatorMain {
  private static final Logger LOG = LoggerFactory.getLogger(OperatorMain.class);

  private OperatorMain() {}

  public static void main(String[] args) throws Exception {
    var settings = OperatorSettings.fromEnv(System.getenv());
    var registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    new JvmMemoryMetrics().bindTo(registry);
    new JvmGcMetrics().bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);

    var operator = create(settings, registry);
    operator.installShutdownHook(Duration.ofSeconds(10));
    HealthServer.start(
        new InetSocketAddress(settings.healthPort()),
        operator.getRuntimeInfo(),
        registry,
        Map.of(
            "/reports/",
            new ReportSite(operator.getKubernetesClient(), settings.watchNamespaces())));
    operator.start();
    LOG.info(
        "dht operator started: namespaces={}, node image={}, leader election={}, admin port"
            + " callers={}, policy: {}",
        settings.watchNamespaces().isEmpty() ? "all" : settings.watchNamespaces(),
        settings.nodeImage(),
        settings.leaderElection(),
        settings.adminCallers(),
        settings.policy().describe());
  }

  /**
   * The operator with the DhtCluster, DhtUser, DhtLoadTest, DhtBackup and DhtScheduledBackup
   * controllers registered, not started.
   */
  public static Operator create(OperatorSettings settings, PrometheusMeterRegistry registry) {
    return create(settings, registry, o -> {});
  }

  /**
   * The same, then {@code overrides} applied: a test's client, a leader election that does not end
   * the JVM when it stops.
   */
  static Operator create(
      OperatorSettings settings,
      PrometheusMeterRegistry registry,
      Consumer<ConfigurationServiceOverrider> overrides) {
    var operator =
        new Operator(o -> {
          o.withMetrics(MicrometerMetrics.withoutPerResourceMetrics(registry));
          o.withDependentResourceFactory(
              new NetworkPolicyDependentFactory(settings.adminCallers()));
          if (settings.leaderElection()) {
            o.withLeaderElectionConfiguration(
                new LeaderElectionConfiguration(settings.leaseName(), settings.leaseNamespace()));
          }
          overrides.accept(o);
        });
    operator.register(
        new DhtClusterReconciler(settings.nodeImage(), settings.nodeImagePull(), settings.policy()),
        c -> {
          if (!settings.watchNamespaces().isEmpty()) {
            c.settingNamespaces(settings.watchNamespaces());
          }
        });
    operator.register(
        new DhtUserReconciler(),
        c -> {
          if (!settings.watchNamespaces().isEmpty()) {
            c.settingNamespaces(settings.watchNamespaces());
          }
        });
    operator.register(
        new DhtLoadTestReconciler(
            settings.nodeImage(), settings.nodeImagePull(), settings.policy()),
        c -> {
          if (!settings.watchNamespaces().isEmpty()) {
            c.settingNamespaces(settings.watchNamespaces());
          }
        });
    operator.register(
        new DhtScheduledBackupReconciler(),
        c -> {
          if (!settings.watchNamespaces().isEmpty()) {
            c.settingNamespaces(settings.watchNamespaces());
          }
        });
    operator.register(
        new DhtBackupReconciler(new NodeAdmin(UnaryOperator.identity()), registry),
        c -> {
          if (!settings.watchNamespaces().isEmpty()) {
            c.settingNamespaces(settings.watchNamespaces());
          }
        });
    return operator;
  }
}
