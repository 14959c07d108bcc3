package dev.dht.operator;

import dev.dht.operator.cluster.ImagePull;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The operator's configuration, from environment variables.
 *
 * @param nodeImage DHT_NODE_IMAGE: image of clusters that do not name one, and of load tests
 * @param nodeImagePull DHT_NODE_IMAGE_PULL_POLICY (IfNotPresent) and DHT_NODE_IMAGE_PULL_SECRETS
 *     (comma-separated Secret names) of node pods whose cluster sets none
 * @param watchNamespaces WATCH_NAMESPACES: comma-separated; empty means every namespace
 * @param healthPort HEALTH_PORT: port of /healthz, /readyz and /metrics
 * @param leaderElection LEADER_ELECTION: "false" turns it off (a single replica, local runs)
 * @param leaseName LEASE_NAME: the Lease the replicas compete for
 * @param leaseNamespace LEASE_NAMESPACE (or POD_NAMESPACE): null means the client's namespace
 */
public record OperatorSettings(
    String nodeImage,
    ImagePull nodeImagePull,
    Set<String> watchNamespaces,
    int healthPort,
    boolean leaderElection,
    String leaseName,
    String leaseNamespace) {

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
        nonBlank(env.get("LEASE_NAMESPACE"), env.get("POD_NAMESPACE")));
  }

  private static String nonBlank(String value, String fallback) {
    return value == null || value.isBlank() ? fallback : value.strip();
  }
}
