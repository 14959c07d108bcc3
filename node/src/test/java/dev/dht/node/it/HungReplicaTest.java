package dev.dht.node.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A replica that accepts connections and never answers (a hung process, a black-holed link): at 2/3
 * the other two answer every read and write before the deadline.
 */
class HungReplicaTest {
  @TempDir Path root;

  @Test
  void readsAndWritesAtTwoOfThreeSucceedWithOneReplicaHung() throws Exception {
    // The kernel completes connections to the socket's backlog; nothing ever reads or answers.
    try (ServerSocket hung = new ServerSocket(0, 100, InetAddress.getLoopbackAddress());
        LocalCluster cluster = LocalCluster.start(root, 2)) {
      String members =
          cluster.url(0) + "," + cluster.url(1) + ",http://127.0.0.1:" + hung.getLocalPort();
      for (int i = 0; i < 2; i++) {
        cluster.stop(i);
        cluster.start(i, "--cluster", members, "--request-timeout-ms", "1000");
      }
      // Twenty keys, coordinated by either live node.
      for (int k = 0; k < 20; k++) {
        assertThat(cluster.client(k % 2).put("key" + k, "v" + k, 2, 3).status())
            .as("PUT key%d", k)
            .isEqualTo(201);
      }
      for (int k = 0; k < 20; k++) {
        DhtClient.Reply reply = cluster.client(k % 2).get("key" + k, 2, 3);
        assertThat(reply.status()).as("GET key%d", k).isEqualTo(200);
        assertThat(reply.text()).isEqualTo("v" + k);
      }
    }
  }
}
