package dev.dht.node.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.dht.node.replication.InternalApi;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpRequest.BodyPublishers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A member removed from the cluster keeps its data directory (a claim kept by a scale-down); keys
 * it held are deleted and the tombstones purged by the remaining members; then it is added back on
 * that old directory. It must not bring a deleted value back: it finds that its peers purged past
 * its data, drops the data and takes its share from the others. Repair every second, tombstones
 * kept at least 3 s, hints 1 s.
 */
class ReturningVolumeProcessTest {
  private static final int KEYS = 100;

  @TempDir Path root;

  private final List<String> urls = new ArrayList<>();
  private final List<NodeProcess> nodes = new ArrayList<>();
  private Path membersFile;

  @Test
  void aRemovedMembersOldVolumeAddedBackBringsNoDeletedValueBack() throws Exception {
    for (int i = 0; i < 3; i++) {
      urls.add("http://127.0.0.1:" + Ports.free());
      nodes.add(null);
    }
    membersFile = root.resolve("members");
    publish(1, "normal", "normal", "normal");
    String[] secret = LocalCluster.secretFlags(root, NodeProcess.CLUSTER_SECRET);
    String[] flags = {
      secret[0],
      secret[1],
      "--cluster-file",
      membersFile.toString(),
      "--default-from",
      "3",
      "--repair-interval-s",
      "1",
      "--tombstone-grace-s",
      "3",
      "--hint-window-s",
      "1"
    };
    try {
      for (int i = 0; i < 3; i++) {
        start(i, flags);
      }
      for (int k = 0; k < KEYS; k++) {
        assertThat(nodes.get(0).client().put("gone-" + k, "old", 3, 3).status()).isEqualTo(201);
      }
      await("node 2 completed a repair run").until(() -> repairedSince(2) > 0);
      nodes.get(2).close();
      publish(2, "normal", "normal", null); // removed (its keys were on the others too)
      awaitEpoch(2, 0, 1);
      for (int k = 0; k < KEYS; k++) {
        assertThat(nodes.get(k % 2).client().delete("gone-" + k, 2, 2).status()).isEqualTo(202);
      }
      await("the others purged the tombstones")
          .atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofMillis(500))
          .until(
              () -> nodes.get(0).stored("gone-0") == null && nodes.get(1).stored("gone-0") == null);

      publish(3, "normal", "normal", "joining");
      awaitEpoch(3, 0, 1);
      start(2, flags); // on its old data directory
      awaitEpoch(3, 2);
      admin("stream", 2);
      await("node 2 streamed")
          .atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofMillis(200))
          .until(() -> status(2).getJsonObject("stream").getLong("completedEpoch") == 3);
      publish(4, "normal", "normal", "normal");
      awaitEpoch(4, 0, 1, 2);
      Thread.sleep(3000); // repair runs everywhere

      int resurrected = 0;
      for (int k = 0; k < KEYS; k++) {
        for (int i = 0; i < 3; i++) {
          resurrected += nodes.get(i).client().get("gone-" + k, 1, 3).status() == 404 ? 0 : 1;
        }
        resurrected += nodes.get(2).stored("gone-" + k) == null ? 0 : 1;
      }
      assertThat(resurrected).as("deleted values read or held again").isZero();
      assertThat(status(2).getJsonObject("bootstrap").getString("phase")).isEqualTo("serving");
    } finally {
      nodes.stream().filter(n -> n != null).forEach(NodeProcess::close);
    }
  }

  private void start(int i, String[] flags) {
    nodes.set(
        i,
        NodeProcess.start(root.resolve("node-" + i), port(i), List.of(urls.get(i)), "128m", flags));
  }

  private int port(int i) {
    return Integer.parseInt(urls.get(i).substring(urls.get(i).lastIndexOf(':') + 1));
  }

  /** Writes the membership file: the epoch, then each member's state (null: not a member). */
  private void publish(long epoch, String... states) throws Exception {
    StringBuilder out = new StringBuilder("epoch " + epoch + "\n");
    for (int i = 0; i < states.length; i++) {
      if (states[i] != null) {
        out.append(urls.get(i))
            .append(states[i].equals("normal") ? "" : " " + states[i])
            .append('\n');
      }
    }
    Path next = membersFile.resolveSibling("members.next");
    Files.writeString(next, out);
    Files.move(next, membersFile, StandardCopyOption.ATOMIC_MOVE);
  }

  private JsonObject status(int i) {
    return new JsonObject(
        nodes.get(i).client().send("GET", "/v0/admin/status", BodyPublishers.noBody()).text());
  }

  private long repairedSince(int i) {
    JsonObject tombstones = status(i).getJsonObject("tombstones");
    return tombstones == null ? 0 : tombstones.getLong("repairedSinceMillis");
  }

  private void awaitEpoch(long epoch, int... members) {
    for (int i : members) {
      await("node " + i + " at epoch " + epoch)
          .atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofMillis(200))
          .until(() -> status(i).getLong("epoch") == epoch);
    }
  }

  private void admin(String action, int i) {
    DhtClient.Reply reply =
        nodes
            .get(i)
            .client()
            .send(
                "POST",
                "/v0/admin/" + action,
                BodyPublishers.noBody(),
                Map.of(InternalApi.SECRET_HEADER, NodeProcess.CLUSTER_SECRET));
    assertThat(reply.status()).as("%s on node %d: %s", action, i, reply).isEqualTo(202);
  }
}
