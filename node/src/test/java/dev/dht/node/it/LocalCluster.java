package dev.dht.node.it;

import static org.awaitility.Awaitility.await;

import dev.dht.contract.AdminStatus;
import dev.dht.node.Node;
import dev.dht.node.NodeConfig;
import dev.dht.node.NodeOptions;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * N real nodes in this JVM, each with its own Vert.x, port and RocksDB directory, configured
 * through the same flags as a node process. Nodes can be stopped (gracefully), started again on the
 * same data, wiped, or started alone as a one-member cluster to look at their local data.
 */
public final class LocalCluster implements AutoCloseable {
  private final int[] ports;
  private final List<String> flags;
  private final Node[] nodes;
  private final DhtClient[] clients;

  private final Path[] dataDirs;

  private LocalCluster(int[] ports, Path[] dataDirs, List<String> flags) {
    this.ports = ports;
    this.dataDirs = dataDirs;
    this.flags = List.copyOf(flags);
    this.nodes = new Node[ports.length];
    this.clients = new DhtClient[ports.length];
  }

  /**
   * Starts {@code size} nodes under {@code root} with a cluster secret; {@code flags} are added for
   * every node (and may replace the secret).
   */
  public static LocalCluster start(Path root, int size, String... flags) {
    int[] ports = IntStream.range(0, size).map(i -> Ports.free()).toArray();
    Path[] dataDirs =
        IntStream.range(0, size).mapToObj(i -> root.resolve("node-" + i)).toArray(Path[]::new);
    List<String> all =
        new ArrayList<>(List.of("--cluster-secret-file", secretFile(root, "default-secret")));
    all.addAll(Arrays.asList(flags));
    return started(new LocalCluster(ports, dataDirs, all));
  }

  /** A one-node cluster on an existing data directory and port (e.g. left by a node process). */
  public static LocalCluster onDataDir(Path dataDir, int port, String... flags) {
    return started(new LocalCluster(new int[] {port}, new Path[] {dataDir}, Arrays.asList(flags)));
  }

  /**
   * Starts every node, and returns once each serves reads: Ready comes earlier, while a node that
   * started empty still asks its peers whether they hold data; stopped before it decides, it would
   * ask again on its next start, and a test that then leaves a peer out would find it never
   * serving.
   */
  private static LocalCluster started(LocalCluster cluster) {
    try {
      cluster.startAll();
      for (int i = 0; i < cluster.size(); i++) {
        DhtClient client = cluster.client(i);
        await("node " + i + " serving reads")
            .atMost(Duration.ofSeconds(30))
            .pollInterval(Duration.ofMillis(50))
            .until(() ->
                new JsonObject(client.send("GET", "/v0/admin/status", noBody()).text())
                    .getJsonObject("bootstrap")
                    .getString("phase")
                    .equals(AdminStatus.Bootstrap.SERVING));
      }
    } catch (RuntimeException | Error e) {
      cluster.close();
      throw e;
    }
    return cluster;
  }

  /** Writes {@code secret} to a file under {@code root} and returns the flags that use it. */
  public static String[] secretFlags(Path root, String secret) {
    return new String[] {"--cluster-secret-file", secretFile(root, secret)};
  }

  private static String secretFile(Path root, String secret) {
    try {
      Path file = root.resolve("cluster-secret-" + secret.hashCode());
      Files.writeString(file, secret + "\n");
      return file.toString();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public int size() {
    return ports.length;
  }

  public int port(int node) {
    return ports[node];
  }

  public String url(int node) {
    return "http://127.0.0.1:" + ports[node];
  }

  public Path dataDir(int node) {
    return dataDirs[node];
  }

  /** The client of a running node (a new one after every restart). */
  public DhtClient client(int node) {
    if (clients[node] == null) {
      throw new IllegalStateException("node " + node + " is not running");
    }
    return clients[node];
  }

  public boolean running(int node) {
    return nodes[node] != null;
  }

  public void start(int node) {
    start(node, allMembers(), List.of());
  }

  /** Starts the node with {@code extraFlags} added (for this start only) after the cluster's. */
  public void start(int node, String... extraFlags) {
    start(node, allMembers(), List.of(extraFlags));
  }

  /** Starts the node as the only member of its cluster, on its own data: sees only local data. */
  public void startAlone(int node) {
    start(node, List.of(url(node)), List.of());
  }

  public void startAll() {
    for (int i = 0; i < size(); i++) {
      if (!running(i)) {
        start(i);
      }
    }
  }

  /** Graceful stop, as on SIGTERM: stop accepting, finish in-flight work, close RocksDB. */
  public void stop(int node) {
    if (clients[node] != null) {
      clients[node].close();
      clients[node] = null;
    }
    if (nodes[node] != null) {
      nodes[node].close();
      nodes[node] = null;
    }
  }

  public void stopAll() {
    for (int i = 0; i < size(); i++) {
      stop(i);
    }
  }

  /** Deletes a stopped node's data directory. */
  public void wipe(int node) {
    if (running(node)) {
      throw new IllegalStateException("stop node " + node + " before wiping it");
    }
    Path dir = dataDir(node);
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The keys (UTF-8) of this node's local live entries in [start, end), in the order served. */
  public List<String> localKeys(int node, String start, String end) {
    String target =
        "/v0/entities?start="
            + DhtClient.encode(start)
            + (end == null ? "" : "&end=" + DhtClient.encode(end));
    List<String> keys = new ArrayList<>();
    int status =
        RawHttp.stream(
            ports[node],
            target,
            (buffer, length) -> {
              int newline = 0;
              while (buffer[newline] != '\n') {
                newline++;
              }
              keys.add(new String(buffer, 0, newline, StandardCharsets.UTF_8));
            });
    if (status != 200) {
      throw new IllegalStateException("range " + target + " answered " + status);
    }
    return keys;
  }

  @Override
  public void close() {
    RuntimeException failure = null;
    for (int i = 0; i < size(); i++) {
      try {
        stop(i);
      } catch (RuntimeException e) {
        failure = e;
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  private List<String> allMembers() {
    return IntStream.range(0, size()).mapToObj(this::url).toList();
  }

  private void start(int node, List<String> members, List<String> extraFlags) {
    if (running(node)) {
      throw new IllegalStateException("node " + node + " is already running");
    }
    List<String> args = new ArrayList<>();
    args.addAll(
        List.of(
            "--self",
            url(node),
            "--cluster",
            String.join(",", members),
            "--data-dir",
            dataDir(node).toString(),
            "--event-loops",
            "1",
            "--storage-threads",
            "2",
            "--block-cache-mb",
            "8"));
    args.addAll(flags); // later flags win, so a test can override the ones above
    args.addAll(extraFlags);
    NodeConfig config;
    try {
      config = NodeOptions.parse(args.toArray(String[]::new));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    nodes[node] = Node.start(config);
    DhtClient client = new DhtClient(ports[node], AdminSecret.of(config.clusterSecretFile()));
    clients[node] = client;
    await("node " + node + " ready")
        .atMost(Duration.ofSeconds(10))
        .pollInterval(Duration.ofMillis(50))
        .ignoreExceptions()
        .until(() -> client.send("GET", "/health/ready", noBody()).status() == 200);
  }

  private static java.net.http.HttpRequest.BodyPublisher noBody() {
    return java.net.http.HttpRequest.BodyPublishers.noBody();
  }
}
