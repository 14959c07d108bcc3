package dev.dht.operator.cluster;

import static dev.dht.operator.cluster.Clusters.cluster;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import java.util.List;
import org.junit.jupiter.api.Test;

class NodeThreadsTest {
  private static ResourceRequirements cpu(String request, String limit) {
    var b = new ResourceRequirementsBuilder();
    if (request != null) {
      b.addToRequests("cpu", new Quantity(request));
    }
    if (limit != null) {
      b.addToLimits("cpu", new Quantity(limit));
    }
    return b.build();
  }

  @Test
  void oneEventLoopPerWholeCoreOfTheLimitElseTheRequest() {
    assertThat(NodeThreads.forResources(cpu("250m", null))).isEqualTo(new NodeThreads(1, 2));
    assertThat(NodeThreads.forResources(cpu("2", null))).isEqualTo(new NodeThreads(2, 4));
    assertThat(NodeThreads.forResources(cpu("1500m", null))).isEqualTo(new NodeThreads(1, 2));
    assertThat(NodeThreads.forResources(cpu("500m", "4"))).isEqualTo(new NodeThreads(4, 8));
    assertThat(NodeThreads.forResources(cpu(null, null))).isEqualTo(new NodeThreads(1, 2));
    assertThat(NodeThreads.forResources(null)).isEqualTo(new NodeThreads(1, 2));
  }

  @Test
  void theDefaultPodGetsOneLoopAndTwoWorkersAndTheSpecStillWins() {
    var model = ClusterModel.of(cluster(3), OperatorDefaults.current("img"));
    assertThat(List.of(model.eventLoops(), model.storageWorkers())).containsExactly(1, 2);

    var big = cluster(3);
    big.getSpec().setResources(cpu("3", null));
    var bigModel = ClusterModel.of(big, OperatorDefaults.current("img"));
    assertThat(List.of(bigModel.eventLoops(), bigModel.storageWorkers())).containsExactly(3, 6);

    var set = cluster(3);
    set.getSpec().getThreads().setEventLoops(5);
    set.getSpec().getThreads().setStorageWorkers(7);
    var setModel = ClusterModel.of(set, OperatorDefaults.current("img"));
    assertThat(List.of(setModel.eventLoops(), setModel.storageWorkers())).containsExactly(5, 7);
  }
}
