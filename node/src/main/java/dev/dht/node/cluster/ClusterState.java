package dev.dht.node.cluster;

/**
 * What the request path reads on every request: the current topology and replication defaults. Both
 * are swapped whole when their files change, so readers never see half an update.
 */
public final class ClusterState {
  private volatile Topology topology;
  private volatile Replication.Defaults defaults;

  public ClusterState(Topology topology, Replication.Defaults defaults) {
    this.topology = topology;
    this.defaults = defaults;
  }

  public Topology topology() {
    return topology;
  }

  public Replication.Defaults defaults() {
    return defaults;
  }

  public void topology(Topology topology) {
    this.topology = topology;
  }

  public void defaults(Replication.Defaults defaults) {
    this.defaults = defaults;
  }
}
