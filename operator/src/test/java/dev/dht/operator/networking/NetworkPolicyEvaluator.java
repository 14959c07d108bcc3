package dev.dht.operator.networking;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import io.fabric8.kubernetes.api.model.networking.v1.IPBlock;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyIngressRule;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeer;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPort;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Whether a TCP connection from one pod to a port of another is allowed by a set of ingress
 * NetworkPolicies, as a CNI that enforces them decides it. The test cluster's CNI bridge enforces
 * none, so this is how the generated policies are tested. Implements the parts of the semantics the
 * operator's policies and their users need:
 *
 * <ul>
 *   <li>a pod no policy of its namespace selects (podSelector, with Ingress among the policyTypes)
 *       accepts everything; a selected pod accepts what at least one rule of one of those policies
 *       allows (OR across policies and rules);
 *   <li>a rule allows a connection when one of its ports matches (none listed: every port) and one
 *       of its peers matches (none listed: everyone);
 *   <li>a peer with podSelector alone means pods of the policy's namespace; with namespaceSelector
 *       alone, every pod of the namespaces it selects; with both, the pods of those namespaces that
 *       podSelector selects (AND); ipBlock matches the source address;
 *   <li>label selectors: matchLabels and matchExpressions (In, NotIn, Exists, DoesNotExist), all
 *       ANDed; an empty selector selects everything.
 * </ul>
 *
 * Named ports and SCTP/UDP are not supported (an exception says so rather than a wrong answer).
 * Pure: nothing is read from a cluster.
 */
final class NetworkPolicyEvaluator {
  private NetworkPolicyEvaluator() {}

  /** A namespace; it carries the label the apiserver gives every namespace, its name. */
  record Namespace(String name, Map<String, String> labels) {
    Namespace {
      var all = new HashMap<>(labels);
      all.put(NodeNetworkPolicy.NAMESPACE_NAME_LABEL, name);
      labels = Map.copyOf(all);
    }

    static Namespace named(String name) {
      return new Namespace(name, Map.of());
    }
  }

  /** A pod (or, with a null namespace, an address outside the Kubernetes cluster). */
  record Pod(Namespace namespace, Map<String, String> labels, String ip) {
    static Pod in(Namespace namespace, Map<String, String> labels) {
      return new Pod(namespace, labels, "10.244.0.99");
    }

    static Pod outside(String ip) {
      return new Pod(null, Map.of(), ip);
    }
  }

  /** Whether {@code from} may open a TCP connection to {@code port} of {@code to}. */
  static boolean allows(Collection<NetworkPolicy> policies, Pod from, Pod to, int port) {
    var selecting =
        policies.stream()
            .filter(p -> to.namespace().name().equals(p.getMetadata().getNamespace()))
            .filter(p -> selects(p.getSpec().getPodSelector(), to.labels()))
            .filter(NetworkPolicyEvaluator::restrictsIngress)
            .toList();
    if (selecting.isEmpty()) {
      return true;
    }
    return selecting.stream()
        .anyMatch(policy ->
            ingress(policy).stream()
                .anyMatch(rule ->
                    portMatches(rule, port)
                        && peerMatches(rule, from, policy.getMetadata().getNamespace())));
  }

  private static boolean restrictsIngress(NetworkPolicy policy) {
    var types = policy.getSpec().getPolicyTypes();
    // unset policyTypes: Ingress always, Egress only with egress rules
    return types == null || types.isEmpty() || types.contains("Ingress");
  }

  private static List<NetworkPolicyIngressRule> ingress(NetworkPolicy policy) {
    return Objects.requireNonNullElse(policy.getSpec().getIngress(), List.of());
  }

  private static boolean portMatches(NetworkPolicyIngressRule rule, int port) {
    var ports = rule.getPorts();
    return ports == null || ports.isEmpty() || ports.stream().anyMatch(p -> covers(p, port));
  }

  private static boolean covers(NetworkPolicyPort rulePort, int port) {
    if (rulePort.getProtocol() != null && !"TCP".equals(rulePort.getProtocol())) {
      throw new UnsupportedOperationException("protocol " + rulePort.getProtocol());
    }
    if (rulePort.getPort() == null) {
      return true; // every port of the protocol
    }
    if (rulePort.getPort().getIntVal() == null) {
      throw new UnsupportedOperationException("named port " + rulePort.getPort().getStrVal());
    }
    int first = rulePort.getPort().getIntVal();
    int last = rulePort.getEndPort() != null ? rulePort.getEndPort() : first;
    return first <= port && port <= last;
  }

  private static boolean peerMatches(
      NetworkPolicyIngressRule rule, Pod from, String policyNamespace) {
    var peers = rule.getFrom();
    return peers == null
        || peers.isEmpty()
        || peers.stream().anyMatch(peer -> matches(peer, from, policyNamespace));
  }

  private static boolean matches(NetworkPolicyPeer peer, Pod from, String policyNamespace) {
    if (peer.getIpBlock() != null) {
      return inBlock(peer.getIpBlock(), from.ip());
    }
    if (peer.getPodSelector() == null && peer.getNamespaceSelector() == null) {
      throw new IllegalArgumentException("a peer names nothing (the apiserver refuses it)");
    }
    if (from.namespace() == null) {
      return false; // outside the cluster: only an ipBlock can admit it
    }
    boolean namespaceOk =
        peer.getNamespaceSelector() != null
            ? selects(peer.getNamespaceSelector(), from.namespace().labels())
            : from.namespace().name().equals(policyNamespace);
    boolean podOk = peer.getPodSelector() == null || selects(peer.getPodSelector(), from.labels());
    return namespaceOk && podOk;
  }

  /** Whether a label selector selects an object with these labels. */
  static boolean selects(LabelSelector selector, Map<String, String> labels) {
    if (selector == null) {
      throw new IllegalArgumentException("no selector (a NetworkPolicy's podSelector is required)");
    }
    var matchLabels =
        Objects.requireNonNullElse(selector.getMatchLabels(), Map.<String, String>of());
    boolean labelsOk =
        matchLabels.entrySet().stream().allMatch(e -> e.getValue().equals(labels.get(e.getKey())));
    var expressions =
        Objects.requireNonNullElse(
            selector.getMatchExpressions(), List.<LabelSelectorRequirement>of());
    return labelsOk && expressions.stream().allMatch(r -> holds(r, labels));
  }

  private static boolean holds(LabelSelectorRequirement requirement, Map<String, String> labels) {
    String value = labels.get(requirement.getKey());
    var values = Objects.requireNonNullElse(requirement.getValues(), List.<String>of());
    return switch (requirement.getOperator()) {
      case "In" -> value != null && values.contains(value);
      // NotIn also holds for an object without the label
      case "NotIn" -> value == null || !values.contains(value);
      case "Exists" -> value != null;
      case "DoesNotExist" -> value == null;
      default -> throw new IllegalArgumentException("operator " + requirement.getOperator());
    };
  }

  private static boolean inBlock(IPBlock block, String ip) {
    if (ip == null || !inCidr(block.getCidr(), ip)) {
      return false;
    }
    var except = Objects.requireNonNullElse(block.getExcept(), List.<String>of());
    return except.stream().noneMatch(cidr -> inCidr(cidr, ip));
  }

  /** IPv4 only. */
  static boolean inCidr(String cidr, String ip) {
    String[] parts = cidr.split("/");
    int bits = Integer.parseInt(parts[1]);
    long mask = bits == 0 ? 0 : (0xFFFFFFFFL << (32 - bits)) & 0xFFFFFFFFL;
    return (ipv4(parts[0]) & mask) == (ipv4(ip) & mask);
  }

  private static long ipv4(String address) {
    String[] octets = address.split("\\.");
    if (octets.length != 4) {
      throw new UnsupportedOperationException("not an IPv4 address: " + address);
    }
    long value = 0;
    for (String octet : octets) {
      value = value << 8 | Integer.parseInt(octet);
    }
    return value;
  }
}
