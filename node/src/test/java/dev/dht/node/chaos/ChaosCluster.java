package dev.dht.node.chaos;

import dev.dht.node.it.DhtClient;
import dev.dht.node.it.Membership;
import dev.dht.node.it.NodeProcess;
import dev.dht.node.replication.InternalApi;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * Three node processes at from=3 (room for two more, for a change of size) with test-scaled
 * settings: repair every 2 s, tombstones kept at least 10 s, hints 5 s, so that the purge paths
 * fire within a run. Node 2's clock can be moved while it runs (libfaketime reading a file); the
 * nodes reach each other through proxies ({@link PeerNetwork}) that can cut one off from its peers.
 * The faults a nemesis injects, and the healing after it.
 */
final class ChaosCluster implements AutoCloseable {
  static final int SIZE = 3;
  static final Path LIBFAKETIME = Path.of("/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1");

  private final Membership members;
  private final PeerNetwork network;
  private final boolean[] isolated = new boolean[SIZE + 2];
  private final Path clock;
  private final String[] flags;
  private final boolean[] down = new boolean[SIZE + 2];
  private final boolean[] paused = new boolean[SIZE + 2];

  private ChaosCluster(Path root) throws Exception {
    Files.createDirectories(root);
    members = new Membership(root, SIZE + 2, PeerNetwork::host);
    network = new PeerNetwork(root, IntStream.range(0, SIZE + 2).mapToObj(members::port).toList());
    clock = root.resolve("clock-offset");
    Files.writeString(clock, "+0s");
    flags =
        members.flags(
            "--default-from",
            "3",
            "--repair-interval-s",
            "2",
            "--tombstone-grace-s",
            "10",
            "--hint-window-s",
            "5",
            "--request-timeout-ms",
            "1000",
            "--listen-address",
            PeerNetwork.LISTEN_ADDRESS);
  }

  static ChaosCluster start(Path root) throws Exception {
    ChaosCluster cluster = new ChaosCluster(root);
    cluster.members.publish(1, false, "normal", "normal", "normal", null, null);
    for (int i = 0; i < SIZE; i++) {
      cluster.launch(i);
    }
    return cluster;
  }

  Membership members() {
    return members;
  }

  List<Integer> clientPorts() {
    return List.of(members.port(0), members.port(1), members.port(2));
  }

  /** Starts node {@code i} on its data; node 2 with a clock that follows the offset file. */
  void launch(int i) {
    Map<String, String> env = new HashMap<>(network.env(i));
    env.putAll(
        i != 2
            ? Map.of()
            : Map.of(
                "LD_PRELOAD",
                LIBFAKETIME.toString(),
                "FAKETIME_TIMESTAMP_FILE",
                clock.toString(),
                "FAKETIME_CACHE_DURATION",
                "1",
                "DONT_FAKE_MONOTONIC",
                "1",
                "FAKETIME_FORCE_MONOTONIC_FIX", // else the JVM's timed waits spin
                "0"));
    members.start(i, env, flags);
    down[i] = false;
  }

  void kill(int i) throws InterruptedException {
    members.node(i).kill();
    down[i] = true;
  }

  /** Cuts node {@code i} off from its peers (true), not from its clients, or mends it (false). */
  void isolate(int i, boolean cut) {
    network.isolate(i, cut);
    isolated[i] = cut;
  }

  /**
   * Checks that the cut holds: node {@code i} still answers its clients, but a write at 2/3 through
   * it fails (it reaches no peer), while one through another node succeeds.
   */
  void requireCutOff(int i) {
    int through = members.node(i).client().put("cut-probe", "x", 2, 3).status();
    int around = members.node((i + 1) % SIZE).client().put("cut-probe", "x", 2, 3).status();
    if (through != 504 || around != 201) {
      throw new IllegalStateException(
          "node " + i + " is not cut off: writes through it " + through + ", around it " + around);
    }
  }

  void pause(int i) throws Exception {
    signal(i, "-STOP");
    paused[i] = true;
  }

  void resume(int i) throws Exception {
    signal(i, "-CONT");
    paused[i] = false;
  }

  /** Kills node {@code i}, deletes its data directory, and starts it again (empty). */
  void wipe(int i) throws InterruptedException {
    kill(i);
    Path dir = members.node(i).dataDir();
    try (Stream<Path> all = Files.walk(dir)) {
      all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    launch(i);
  }

  /** Moves node 2's clock by {@code offset} from the true time ("+120s", "-90s", "+0s"). */
  void clock(String offset) throws IOException {
    Path next = clock.resolveSibling("clock-offset.next");
    Files.writeString(next, offset);
    Files.move(next, clock, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
  }

  /**
   * After the nemesis: every node back (resumed, restarted, its clock true), then a repair run on
   * each, twice, so that every pair converged both ways.
   */
  void heal() throws Exception {
    clock("+0s");
    for (int i = 0; i < SIZE; i++) {
      if (isolated[i]) {
        isolate(i, false);
      }
      if (paused[i]) {
        resume(i);
      }
      if (down[i]) {
        launch(i);
      }
    }
    for (int round = 0; round < 2; round++) {
      for (int i = 0; i < SIZE; i++) {
        repair(members.node(i));
      }
    }
  }

  /**
   * Until a repair run that began after this call ended on {@code node} (runs every 2 s anyway).
   */
  private static void repair(NodeProcess node) {
    long runs = node.repairStatus().getLong("runs");
    boolean running = node.repairStatus().getString("state").equals("running");
    long wanted = runs + (running ? 2 : 1); // a run under way began before this call
    node.client()
        .send(
            "POST",
            "/v0/admin/repair",
            java.net.http.HttpRequest.BodyPublishers.noBody(),
            Map.of(InternalApi.SECRET_HEADER, NodeProcess.CLUSTER_SECRET));
    org.awaitility.Awaitility.await("a repair run on port " + node.port())
        .atMost(java.time.Duration.ofSeconds(60))
        .pollInterval(java.time.Duration.ofMillis(200))
        .until(() -> node.repairStatus().getLong("runs") >= wanted);
  }

  /** Each key's value number read at 3/3 ({@link History#ABSENT}: 404), retried until answered. */
  Map<String, Long> finalState(List<String> keys) throws InterruptedException {
    Map<String, Long> state = new HashMap<>();
    DhtClient client = members.node(0).client();
    for (String key : keys) {
      for (int attempt = 0; ; attempt++) {
        DhtClient.Reply reply = client.get(key, 3, 3);
        if (reply.status() == 200 || reply.status() == 404) {
          state.put(key, reply.status() == 200 ? Long.parseLong(reply.text()) : History.ABSENT);
          break;
        }
        if (attempt == 50) {
          throw new IllegalStateException("no final answer for " + key + ": " + reply);
        }
        Thread.sleep(200);
      }
    }
    return state;
  }

  /**
   * Keys whose copies, counted through each node's own range reads, are not what the final state
   * says: 3 for a value, 0 for a deleted key.
   */
  long wrongCopies(Map<String, Long> state) {
    Map<String, Integer> copies = new HashMap<>();
    for (int i = 0; i < SIZE; i++) {
      members.node(i).entries().keySet().forEach(k -> copies.merge(k, 1, Integer::sum));
    }
    return state.entrySet().stream()
        .filter(
            e -> copies.getOrDefault(e.getKey(), 0) != (e.getValue() == History.ABSENT ? 0 : SIZE))
        .count();
  }

  private void signal(int i, String signal) throws Exception {
    NodeProcess node = members.node(i);
    new ProcessBuilder("kill", signal, Long.toString(node.pid())).inheritIO().start().waitFor();
  }

  @Override
  public void close() {
    for (int i = 0; i < paused.length; i++) {
      if (paused[i]) {
        try {
          resume(i);
        } catch (Exception e) {
          // closing kills it anyway
        }
      }
    }
    members.close();
    network.close();
  }
}
