package dev.dht.node.cluster;

/**
 * What the request path reads on every request: the current topology (with its replication
 * defaults), swapped whole when its file changes, so readers never see half an update.
 */
public final class ClusterState {
  private volatile Topology topology;

  public ClusterState(Topology topology) {
    this.topology = topology;
  }

  public Topology topology() {
    return topology;
  }

  public void topology(Topology topology) {
    this.topology = topology;
  }
}
