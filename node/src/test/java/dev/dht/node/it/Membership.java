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
import java.util.function.IntFunction;

/**
 * Node processes that watch a membership file, driven through a change of membership the way the
 * operator drives it: publish an epoch, wait until each node runs with it, stream, clean up. Node
 * {@code i} listens on {@code urls().get(i)} with its data in {@code root/node-i}.
 */
public final class Membership implements AutoCloseable {
  private final Path root;
  private final Path file;
  private final List<String> urls = new ArrayList<>();
  private final List<NodeProcess> nodes = new ArrayList<>();

  /** Each member's zone and next zone in the files published (null: none). */
  private final List<String> zones = new ArrayList<>();

  private final List<String> nextZones = new ArrayList<>();

  public Membership(Path root, int size) {
    this(root, size, i -> "127.0.0.1");
  }

  /** Members whose URLs name the host {@code host.apply(i)}; each listens on a free port. */
  public Membership(Path root, int size, IntFunction<String> host) {
    this.root = root;
    this.file = root.resolve("members");
    for (int i = 0; i < size; i++) {
      urls.add("http://" + host.apply(i) + ":" + Ports.free());
      nodes.add(null);
      zones.add(null);
      nextZones.add(null);
    }
  }

  public List<String> urls() {
    return urls;
  }

  /** The zone of member {@code i} in the membership files published from now on. */
  public void zone(int i, String zone) {
    zones.set(i, zone);
  }

  /** The zone of member {@code i} in the next ring (null: none), in the files published. */
  public void nextZone(int i, String zone) {
    nextZones.set(i, zone);
  }

  public NodeProcess node(int i) {
    return nodes.get(i);
  }

  /** The flags every node needs: the cluster secret and the membership file. */
  public String[] flags(String... more) {
    String[] secret = LocalCluster.secretFlags(root, NodeProcess.CLUSTER_SECRET);
    List<String> all = new ArrayList<>(List.of(secret));
    all.addAll(List.of("--cluster-file", file.toString()));
    all.addAll(List.of(more));
    return all.toArray(String[]::new);
  }

  /** Starts node {@code i} (on the data it had, if any) and returns once it is ready. */
  public NodeProcess start(int i, String... flags) {
    return start(i, Map.of(), flags);
  }

  /** Like {@link #start(int, String...)}, with {@code env} added to the process's environment. */
  public NodeProcess start(int i, Map<String, String> env, String... flags) {
    nodes.set(
        i,
        NodeProcess.start(
            root.resolve("node-" + i), port(i), List.of(urls.get(i)), "128m", env, flags));
    return nodes.get(i);
  }

  public int port(int i) {
    return Integer.parseInt(urls.get(i).substring(urls.get(i).lastIndexOf(':') + 1));
  }

  /** Writes the membership file: the epoch, then each member's state (null: not a member). */
  public void publish(long epoch, boolean readNext, String... states) throws Exception {
    publish(epoch, null, null, readNext, states);
  }

  /**
   * As above, with the replication defaults ("2/3") of the current ring and, if not null, of the
   * next one.
   */
  public void publish(
      long epoch, String replication, String nextReplication, boolean readNext, String... states)
      throws Exception {
    StringBuilder out = new StringBuilder("epoch " + epoch + "\n");
    if (replication != null) {
      out.append("replication ").append(replication).append('\n');
    }
    if (nextReplication != null) {
      out.append("next-replication ").append(nextReplication).append('\n');
    }
    out.append(readNext ? "read-from next\n" : "");
    for (int i = 0; i < states.length; i++) {
      if (states[i] != null) {
        out.append(urls.get(i))
            .append(states[i].equals("normal") ? "" : " " + states[i])
            .append(zones.get(i) == null ? "" : " zone=" + zones.get(i))
            .append(nextZones.get(i) == null ? "" : " next-zone=" + nextZones.get(i))
            .append('\n');
      }
    }
    Path next = file.resolveSibling("members.next");
    Files.writeString(next, out);
    Files.move(next, file, StandardCopyOption.ATOMIC_MOVE);
  }

  public JsonObject status(int i) {
    return new JsonObject(
        nodes.get(i).client().send("GET", "/v0/admin/status", BodyPublishers.noBody()).text());
  }

  public void awaitEpoch(long epoch, int... members) {
    for (int i : members) {
      await("node " + i + " at epoch " + epoch)
          .atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofMillis(200))
          .until(() -> status(i).getLong("epoch") == epoch);
    }
  }

  /** Waits until each member serves reads (its data checked and, if need be, pulled). */
  public void awaitServing(int... members) {
    for (int i : members) {
      await("node " + i + " serving")
          .atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofMillis(200))
          .until(() -> status(i).getJsonObject("bootstrap").getString("phase").equals("serving"));
    }
  }

  public void stream(long epoch, int... members) {
    admin("stream", members);
    for (int i : members) {
      await("node " + i + " streamed for epoch " + epoch)
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(200))
          .until(() -> status(i).getJsonObject("stream").getLong("completedEpoch") == epoch);
    }
  }

  public void cleanup(long epoch, int... members) {
    admin("cleanup", members);
    for (int i : members) {
      await("node " + i + " cleaned up for epoch " + epoch)
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(200))
          .until(() -> status(i).getJsonObject("cleanup").getLong("completedEpoch") == epoch);
    }
  }

  /** {@code POST /v0/admin/action} on each member, which must accept it (202). */
  public void admin(String action, int... members) {
    for (int i : members) {
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

  /** The records the members hold, counted through their own range reads. */
  public int copies(int... members) {
    int copies = 0;
    for (int i : members) {
      copies += nodes.get(i).entries().size();
    }
    return copies;
  }

  @Override
  public void close() {
    for (NodeProcess node : nodes) {
      try {
        if (node != null) {
          node.close();
        }
      } catch (RuntimeException e) {
        System.err.println("closing a node: " + e); // close the others all the same
      }
    }
  }
}
