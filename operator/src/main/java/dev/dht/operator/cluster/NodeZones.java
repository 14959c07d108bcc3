package dev.dht.operator.cluster;

import dev.dht.contract.MembersFile;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The zones of the Kubernetes nodes the pods run on: a label of each Node ({@code
 * spec.topology.zoneKey}), read with a get on nodes and kept 30 seconds, since a node's zone is set
 * when it registers and rarely changes. A node that cannot be read (missing, or the operator may
 * not get nodes) is not asked again for as long, and its zone is unknown. Labels are cluster
 * administrators' (a tenant cannot write them); a value that cannot be a zone counts as none.
 */
final class NodeZones {
  private static final Logger LOG = LoggerFactory.getLogger(NodeZones.class);
  private static final Duration KEPT = Duration.ofSeconds(30);

  /** Beyond this many nodes read, the oldest reads are forgotten all at once. */
  private static final int MAX_NODES = 10_000;

  /** A node's labels, or null if it could not be read, when asked. */
  private record Read(Map<String, String> labels, Instant at) {}

  private final Map<String, Read> read = new ConcurrentHashMap<>();

  /**
   * The zone of Kubernetes node {@code nodeName} under the model's zone key: "" if it has none;
   * null if the pod is not scheduled or the node cannot be read.
   */
  String zone(KubernetesClient client, String nodeName, ClusterModel model) {
    if (nodeName == null || nodeName.isEmpty()) {
      return null;
    }
    Instant now = Instant.now();
    Read known = read.get(nodeName);
    if (known == null || known.at().plus(KEPT).isBefore(now)) {
      known = new Read(labels(client, nodeName), now);
      if (read.size() >= MAX_NODES) {
        read.clear();
      }
      read.put(nodeName, known);
    }
    if (known.labels() == null) {
      return null;
    }
    String zone = known.labels().get(model.topology().zoneKeyOrDefault());
    return zone != null && MembersFile.isZone(zone) ? zone : "";
  }

  private static Map<String, String> labels(KubernetesClient client, String nodeName) {
    try {
      Node node = client.nodes().withName(nodeName).get();
      if (node == null) {
        return null;
      }
      var labels = node.getMetadata().getLabels();
      return labels == null ? Map.of() : Map.copyOf(labels);
    } catch (KubernetesClientException e) {
      LOG.warn("cannot read the zone of node {}: {}", nodeName, e.getMessage());
      return null;
    }
  }
}
