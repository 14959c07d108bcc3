package dev.dht.operator.cluster;

import dev.dht.operator.tls.TlsSpec;
import dev.dht.operator.users.Authentication;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;

/** DhtCluster objects for tests, as the apiserver would hold them after defaulting. */
final class Clusters {
  static final String IMAGE = "local/dht-node:test";

  private Clusters() {}

  static DhtCluster cluster(String name, String namespace, int replicas) {
    var cluster = new DhtCluster();
    cluster.setMetadata(
        new ObjectMetaBuilder().withName(name).withNamespace(namespace).withGeneration(1L).build());
    var spec = new DhtClusterSpec();
    spec.setReplicas(replicas);
    cluster.setSpec(spec);
    return cluster;
  }

  /**
   * A plain-HTTP cluster (spec.tls.enabled false) that admits every client (spec.authentication
   * none): the nodes a {@link StandInKubelet} runs on local ports share one port, serve no TLS, and
   * the tests' clients send no token.
   */
  static DhtCluster plain(String name, String namespace, int replicas) {
    var cluster = cluster(name, namespace, replicas);
    cluster.getSpec().setTls(TlsSpec.builder().enabled(false).build());
    cluster.getSpec().setAuthentication(Authentication.None);
    return cluster;
  }

  static DhtCluster cluster(int replicas) {
    return cluster("demo", "ns", replicas);
  }

  static ClusterModel model(DhtCluster cluster) {
    return ClusterModel.of(cluster, IMAGE);
  }
}
