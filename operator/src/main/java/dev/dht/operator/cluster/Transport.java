package dev.dht.operator.cluster;

/**
 * How a cluster's nodes talk: over TLS, with clients, peers and admins on ports of their own (peers
 * prove who they are with certificates of the cluster's CA), or in plain HTTP on one port (an
 * explicit choice, and the clusters made before TLS existed). Chosen when a cluster is created and
 * kept: nodes of both kinds cannot talk to each other, so a change would cut a cluster in two
 * during the roll.
 */
public enum Transport {
  Plain(false, NodePorts.SHARED),
  Tls(true, NodePorts.SPLIT);

  private final boolean tls;
  private final NodePorts ports;

  Transport(boolean tls, NodePorts ports) {
    this.tls = tls;
    this.ports = ports;
  }

  public boolean tls() {
    return tls;
  }

  public NodePorts ports() {
    return ports;
  }

  /**
   * The transport of a cluster: the one its status records; plain HTTP for a cluster that has a
   * status but no record (made by an operator before TLS); else what its spec asks for.
   */
  static Transport decide(boolean tlsWanted, DhtClusterStatus status) {
    if (status != null && status.getTransport() != null) {
      return status.getTransport();
    }
    if (status != null
        && (status.getMembership() != null
            || (status.getMembers() != null && !status.getMembers().isEmpty()))) {
      return Plain;
    }
    return tlsWanted ? Tls : Plain;
  }

  /** Why the spec's wish is not what runs, or null if it is. */
  static String refusal(boolean tlsWanted, Transport running) {
    if (tlsWanted == running.tls) {
      return null;
    }
    return "spec.tls.enabled is "
        + tlsWanted
        + " but the cluster runs "
        + (running.tls ? "TLS" : "plain HTTP")
        + ": the transport is chosen when a cluster is created (nodes of both kinds cannot talk"
        + " to each other during a roll); create a new cluster and move the data to change it";
  }
}
