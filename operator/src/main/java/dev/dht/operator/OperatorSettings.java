package dev.dht.operator;

import dev.dht.operator.cluster.ImagePull;
import dev.dht.operator.networking.AdminCallers;
import dev.dht.operator.policy.AllowedImages;
import dev.dht.operator.policy.AllowedJvmOptions;
import dev.dht.operator.policy.ChartPolicy;
import dev.dht.operator.policy.LoadTestTargets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The operator's configuration, from environment variables.
 *
 * @param nodeImage DHT_NODE_IMAGE: image of clusters that do not name one, and of load tests
 * @param nodeImagePull DHT_NODE_IMAGE_PULL_POLICY (IfNotPresent) and DHT_NODE_IMAGE_PULL_SECRETS
 *     (comma-separated Secret names) of node and load generator pods whose cluster sets none
 * @param watchNamespaces WATCH_NAMESPACES: comma-separated; empty means every namespace
 * @param healthPort HEALTH_PORT: port of /healthz, /readyz and /metrics
 * @param leaderElection LEADER_ELECTION: "false" turns it off (a single replica, local runs)
 * @param leaseName LEASE_NAME: the Lease the replicas compete for
 * @param leaseNamespace LEASE_NAMESPACE (or POD_NAMESPACE): null means the client's namespace
 * @param adminCallers who the nodes' NetworkPolicies admit to their admin port: the operator's pods
 *     (POD_NAMESPACE, from the downward API, and DHT_OPERATOR_POD_SELECTOR, the labels of its pods
 *     as {@code key=value,...}) and DHT_MONITORING_NAMESPACE's pods (unset: none)
 * @param policy what tenants may ask for (chart values policy.*): DHT_POLICY_LOAD_TEST_TARGETS,
 *     DHT_POLICY_IMAGES and DHT_POLICY_JVM_OPTIONS, each a whitespace-separated list
 */
public record OperatorSettings(
    String nodeImage,
    ImagePull nodeImagePull,
    Set<String> watchNamespaces,
    int healthPort,
    boolean leaderElection,
    String leaseName,
    String leaseNamespace,
    AdminCallers adminCallers,
    ChartPolicy policy) {

  public static final String DEFAULT_NODE_IMAGE = "local/dht-node:0.1.0";

  public static OperatorSettings fromEnv(Map<String, String> env) {
    return new OperatorSettings(
        nonBlank(env.get("DHT_NODE_IMAGE"), DEFAULT_NODE_IMAGE),
        new ImagePull(
            nonBlank(env.get("DHT_NODE_IMAGE_PULL_POLICY"), ImagePull.DEFAULT.policy()),
            Arrays.stream(env.getOrDefault("DHT_NODE_IMAGE_PULL_SECRETS", "").split(","))
                .map(String::strip)
                .filter(name -> !name.isEmpty())
                .toList()),
        Arrays.stream(env.getOrDefault("WATCH_NAMESPACES", "").split(","))
            .map(String::strip)
            .filter(ns -> !ns.isEmpty())
            .collect(Collectors.toUnmodifiableSet()),
        Integer.parseInt(nonBlank(env.get("HEALTH_PORT"), "8081")),
        !"false".equalsIgnoreCase(env.get("LEADER_ELECTION")),
        nonBlank(env.get("LEASE_NAME"), "dht-operator"),
        nonBlank(env.get("LEASE_NAMESPACE"), env.get("POD_NAMESPACE")),
        new AdminCallers(
            nonBlank(env.get("POD_NAMESPACE"), null),
            labels(env.getOrDefault("DHT_OPERATOR_POD_SELECTOR", "")),
            nonBlank(env.get("DHT_MONITORING_NAMESPACE"), null)),
        policy(env));
  }

  /** The chart's policy; a malformed entry stops the operator, naming its variable. */
  static ChartPolicy policy(Map<String, String> env) {
    return new ChartPolicy(
        parsed(env, "DHT_POLICY_LOAD_TEST_TARGETS", LoadTestTargets::of),
        parsed(env, "DHT_POLICY_IMAGES", AllowedImages::new),
        parsed(env, "DHT_POLICY_JVM_OPTIONS", AllowedJvmOptions::new));
  }

  /** A whitespace-separated list, parsed. */
  private static <T> T parsed(Map<String, String> env, String name, Function<List<String>, T> of) {
    var words =
        Arrays.stream(env.getOrDefault(name, "").split("\\s+"))
            .filter(word -> !word.isEmpty())
            .toList();
    try {
      return of.apply(words);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(name + ": " + e.getMessage(), e);
    }
  }

  /** Labels written as an equality-based selector, {@code key=value,key=value}. */
  static Map<String, String> labels(String selector) {
    var labels = new LinkedHashMap<String, String>();
    for (String term : selector.split(",")) {
      if (term.isBlank()) {
        continue;
      }
      int eq = term.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException(
            "DHT_OPERATOR_POD_SELECTOR: expected key=value,..., got '" + selector + "'");
      }
      labels.put(term.substring(0, eq).strip(), term.substring(eq + 1).strip());
    }
    return labels;
  }

  private static String nonBlank(String value, String fallback) {
    return value == null || value.isBlank() ? fallback : value.strip();
  }
}
