package dev.dht.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.contract.NodeFlags;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The warm-up's training nodes are reachable from this JVM only, with a secret of the run. */
class TrainingTest {
  @Test
  void trainingNodesListenOnLoopbackWithTheRunsSecretFile() {
    var args =
        Training.nodeArgs(
            "http://127.0.0.1:4001",
            "http://127.0.0.1:4001,http://127.0.0.1:4002",
            Path.of("/tmp/w/node-0"),
            Path.of("/tmp/w/secret"));
    assertThat(args)
        .contains(NodeFlags.LISTEN_ADDRESS + "=127.0.0.1")
        .contains(NodeFlags.CLUSTER_SECRET_FILE + "=/tmp/w/secret");
  }

  @Test
  void eachRunHasItsOwnSecret() {
    String one = Training.randomSecret();
    assertThat(one).hasSize(64).matches("[0-9a-f]+");
    assertThat(Training.randomSecret()).isNotEqualTo(one);
  }
}
