package dev.dht.operator.cluster;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The ports of a node by role: clients (the entity API), peers (node-to-node, mutual TLS when the
 * cluster has TLS) and admin (health, metrics, admin requests). Clusters made by this operator
 * split them, so that NetworkPolicies can tell the roles apart; a cluster made before the split
 * keeps one port for all three (its nodes could not talk to nodes of the other layout during a
 * roll).
 */
public record NodePorts(int client, int peer, int admin) {
  public static final NodePorts SPLIT = new NodePorts(8080, 7070, 9090);
  public static final NodePorts SHARED = new NodePorts(8080, 8080, 8080);

  /** Whether one port serves every role. */
  public boolean shared() {
    return client == peer && peer == admin;
  }

  /**
   * The ports by the names pods and Services give them: {@code http} (clients; every role on a
   * shared port), then {@code peer} and {@code admin}.
   */
  public Map<String, Integer> byName() {
    var named = new LinkedHashMap<String, Integer>();
    named.put("http", client);
    if (!shared()) {
      named.put("peer", peer);
      named.put("admin", admin);
    }
    return named;
  }
}
