package dev.dht.operator.tls;

import java.util.List;

/**
 * The DNS names the node certificate carries: every name a node is reached by. Peers and the
 * operator reach a node by its pod's name under the headless peer Service ({@code
 * <pod>.<peers>.<ns>.svc}, and the shorter forms the resolver's search path allows, or the longer
 * one); clients by the client Service in its forms; a process in the pod by localhost. One
 * certificate for all nodes: the pod names are covered by wildcards, so a scale needs no new one.
 *
 * <p>OpenSSL (curl) does not match a wildcard with a single label after it ({@code *.<peers>}); the
 * JDK and Go do. Clients in another namespace use the forms with the namespace anyway.
 */
public final class NodeDnsNames {
  /** The cluster's DNS domain: Kubernetes' default, which the operator assumes. */
  static final String CLUSTER_DOMAIN = "cluster.local";

  private NodeDnsNames() {}

  public static List<String> of(String peerService, String clientService, String namespace) {
    return List.of(
        "*." + peerService + "." + namespace + ".svc",
        "*." + peerService + "." + namespace + ".svc." + CLUSTER_DOMAIN,
        "*." + peerService + "." + namespace,
        "*." + peerService,
        clientService,
        clientService + "." + namespace,
        clientService + "." + namespace + ".svc",
        clientService + "." + namespace + ".svc." + CLUSTER_DOMAIN,
        "localhost");
  }
}
