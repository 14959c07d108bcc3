package dev.dht.operator.networking;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyIngressRule;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyIngressRuleBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeer;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeerBuilder;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The ingress NetworkPolicy of a DhtCluster's node pods: one rule per port, each admitting the
 * callers of the roles served there. Clients reach the client port (from {@code
 * spec.networkPolicy.clientsFrom}, else from the cluster's namespace); only the cluster's own nodes
 * reach the peer port; the operator and the monitoring namespace reach the admin port. Where one
 * port serves several roles (clusters made before the ports were split serve all three on one), its
 * rule admits the callers of all of them. Egress stays unrestricted: the nodes only call their
 * peers, and a policy on the callers' side would be theirs to write. Pure.
 */
public final class NodeNetworkPolicy {

  /** The label the apiserver gives every namespace, its name: it lets a rule name a namespace. */
  public static final String NAMESPACE_NAME_LABEL = "kubernetes.io/metadata.name";

  /**
   * The node ports by role: the numbers of the cluster's {@code NodePorts}, which this package
   * cannot name (the cluster package depends on it, and packages depend one way).
   */
  public record Ports(int client, int peer, int admin) {}

  /** The pods the policy protects: the node pods of one cluster. */
  public record Nodes(String namespace, Map<String, String> podLabels, Ports ports) {}

  private NodeNetworkPolicy() {}

  public static NetworkPolicy desired(
      ObjectMeta metadata, Nodes nodes, NetworkPolicySpec spec, AdminCallers admin) {
    // ports in role order, so that the rules keep one order whatever the layout
    var callersByPort = new LinkedHashMap<Integer, Set<NetworkPolicyPeer>>();
    admit(callersByPort, nodes.ports().client(), clients(spec, nodes.namespace()));
    admit(callersByPort, nodes.ports().peer(), List.of(podsLabelled(nodes.podLabels())));
    admit(callersByPort, nodes.ports().admin(), admin.peers());
    var rules = new ArrayList<NetworkPolicyIngressRule>();
    callersByPort.forEach((port, callers) -> {
      // a rule with an empty from list would admit everyone: a port nobody may call gets none
      if (!callers.isEmpty()) {
        rules.add(rule(port, callers));
      }
    });
    return new NetworkPolicyBuilder()
        .withMetadata(metadata)
        .withNewSpec()
        .withPodSelector(new LabelSelectorBuilder().withMatchLabels(nodes.podLabels()).build())
        .withPolicyTypes("Ingress")
        .withIngress(rules)
        .endSpec()
        .build();
  }

  /** The clients the spec names, else every pod of the cluster's namespace. */
  static List<NetworkPolicyPeer> clients(NetworkPolicySpec spec, String namespace) {
    if (spec != null && spec.getClientsFrom() != null) {
      return spec.getClientsFrom();
    }
    return List.of(
        new NetworkPolicyPeerBuilder().withNamespaceSelector(namespaceNamed(namespace)).build());
  }

  /** The namespace {@code name} (and no other), as a namespace selector. */
  static LabelSelector namespaceNamed(String name) {
    return new LabelSelectorBuilder().withMatchLabels(Map.of(NAMESPACE_NAME_LABEL, name)).build();
  }

  /** Pods of the policy's own namespace with these labels. */
  private static NetworkPolicyPeer podsLabelled(Map<String, String> labels) {
    return new NetworkPolicyPeerBuilder()
        .withPodSelector(new LabelSelectorBuilder().withMatchLabels(labels).build())
        .build();
  }

  private static void admit(
      Map<Integer, Set<NetworkPolicyPeer>> callersByPort,
      int port,
      Collection<NetworkPolicyPeer> callers) {
    callersByPort.computeIfAbsent(port, p -> new LinkedHashSet<>()).addAll(callers);
  }

  private static NetworkPolicyIngressRule rule(int port, Collection<NetworkPolicyPeer> callers) {
    // the port by number, not by name: a number means the same on every pod of the cluster,
    // whichever names its template gives its ports
    return new NetworkPolicyIngressRuleBuilder()
        .addNewPort()
        .withProtocol("TCP")
        .withPort(new IntOrString(port))
        .endPort()
        .withFrom(List.copyOf(callers))
        .build();
  }
}
