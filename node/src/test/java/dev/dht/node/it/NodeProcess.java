package dev.dht.node.it;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpRequest.BodyPublishers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A node in its own JVM ({@code dev.dht.node.Main} on this test's classpath, or the class the
 * system property {@code dht.node.main} names), for what needs a real process: a small heap, or a
 * signal. Output goes to a log file; {@link #close()} kills it if still running.
 */
public final class NodeProcess implements AutoCloseable {
  /** The secret of the clusters {@link #startCluster} starts. */
  public static final String CLUSTER_SECRET = "process-secret";

  /** How a node process was started, to start it again. */
  private record Launch(
      Path dataDir,
      int port,
      List<String> members,
      String heap,
      java.util.Map<String, String> env,
      String[] flags) {}

  private final Process process;
  private final Path log;
  private final int port;
  private final DhtClient client;
  private final Launch launch;

  private NodeProcess(Process process, Path log, int port, Launch launch) {
    this.process = process;
    this.log = log;
    this.port = port;
    this.client = new DhtClient(port, AdminSecret.fromFlags(launch.flags()));
    this.launch = launch;
  }

  /**
   * Starts this node again (it must have exited) on the same port and data directory, with {@code
   * env} instead of its environment; returns once it is ready.
   */
  public NodeProcess restart(java.util.Map<String, String> env) {
    if (process.isAlive()) {
      throw new IllegalStateException("node on port " + port + " still runs");
    }
    return start(
        launch.dataDir(), launch.port(), launch.members(), launch.heap(), env, launch.flags());
  }

  /**
   * Starts this node again like {@link #restart}, but returns once it is live, Ready or not (a node
   * that started empty is not Ready while it bootstraps).
   */
  public NodeProcess restartLive() {
    if (process.isAlive()) {
      throw new IllegalStateException("node on port " + port + " still runs");
    }
    NodeProcess node =
        launch(
            launch.dataDir(),
            launch.port(),
            launch.members(),
            launch.heap(),
            launch.env(),
            launch.flags());
    node.awaitHealth("/health/live");
    return node;
  }

  /** SIGKILL, and waits for the exit. */
  public void kill() throws InterruptedException {
    client.close();
    process.destroyForcibly();
    process.waitFor(10, TimeUnit.SECONDS);
  }

  /**
   * What this node's own replica holds for {@code key} (tombstones included; null: nothing), read
   * through the internal API of a {@link #startCluster} cluster.
   */
  public dev.dht.node.storage.Record stored(String key) {
    var op =
        dev.dht.node.replication.ReplicaOp.read(
            key.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    DhtClient.Reply reply =
        client.send(
            "POST",
            dev.dht.node.replication.InternalApi.BATCH_PATH,
            BodyPublishers.ofByteArray(
                dev.dht.node.replication.BatchCodec.encodeOps(List.of(op)).getBytes()),
            java.util.Map.of(dev.dht.node.replication.InternalApi.SECRET_HEADER, CLUSTER_SECRET));
    if (reply.status() != 200) {
      throw new IllegalStateException("internal read failed: " + reply);
    }
    var result =
        dev.dht.node.replication.BatchCodec.decodeResults(
                io.vertx.core.buffer.Buffer.buffer(reply.body()), 1)
            .getFirst();
    if (result.failed()) {
      throw new IllegalStateException("internal read of " + key + " failed");
    }
    return result.record();
  }

  /**
   * This node's own live entries (its replica alone), from {@code GET /v0/entities?start=%01} (the
   * first key).
   */
  public java.util.Map<String, String> entries() {
    RawHttp.Response response = RawHttp.get(port, "/v0/entities?start=%01");
    if (response.status() != 200) {
      throw new IllegalStateException("range read failed: " + response.status());
    }
    java.util.Map<String, String> entries = new java.util.TreeMap<>();
    for (byte[] chunk : response.chunks()) {
      int newline = 0;
      while (newline < chunk.length && chunk[newline] != '\n') {
        newline++;
      }
      entries.put(
          new String(chunk, 0, newline, java.nio.charset.StandardCharsets.UTF_8),
          new String(
              chunk,
              newline + 1,
              chunk.length - newline - 1,
              java.nio.charset.StandardCharsets.UTF_8));
    }
    return entries;
  }

  /** Starts a repair run on this node and waits (at most {@code seconds}) until one finished. */
  public io.vertx.core.json.JsonObject repair(long seconds) {
    long runsBefore = repairStatus().getLong("runs");
    DhtClient.Reply started =
        client.send(
            "POST",
            "/v0/admin/repair",
            BodyPublishers.noBody(),
            java.util.Map.of(dev.dht.node.replication.InternalApi.SECRET_HEADER, CLUSTER_SECRET));
    if (started.status() != 202) {
      throw new IllegalStateException("repair did not start: " + started);
    }
    await("a repair run on port " + port)
        .atMost(Duration.ofSeconds(seconds))
        .pollInterval(Duration.ofMillis(200))
        .until(() -> repairStatus().getLong("runs") > runsBefore);
    return repairStatus();
  }

  public io.vertx.core.json.JsonObject repairStatus() {
    return new io.vertx.core.json.JsonObject(
        client.send("GET", "/v0/admin/repair", BodyPublishers.noBody()).text());
  }

  public Path dataDir() {
    return launch.dataDir();
  }

  /**
   * Starts a one-member cluster on {@code port} with its data in {@code dataDir} and returns once
   * it is ready. {@code heap} is the -Xmx value; {@code flags} are added to the node's flags.
   */
  public static NodeProcess start(Path dataDir, int port, String heap, String... flags) {
    return start(dataDir, port, List.of(), heap, flags);
  }

  /**
   * Starts a member of the cluster of {@code members} (URLs; empty: a one-member cluster) on {@code
   * port}; it must be given a secret or {@code --insecure} among {@code flags} if there are other
   * members. Returns once it is ready.
   */
  public static NodeProcess start(
      Path dataDir, int port, List<String> members, String heap, String... flags) {
    return start(dataDir, port, members, heap, java.util.Map.of(), flags);
  }

  /** Like {@link #start(Path, int, List, String, String...)}, with {@code env} added. */
  public static NodeProcess start(
      Path dataDir,
      int port,
      List<String> members,
      String heap,
      java.util.Map<String, String> env,
      String... flags) {
    NodeProcess node = launch(dataDir, port, members, heap, env, flags);
    node.awaitHealth("/health/ready");
    return node;
  }

  private static NodeProcess launch(
      Path dataDir,
      int port,
      List<String> members,
      String heap,
      java.util.Map<String, String> env,
      String... flags) {
    String self = // the member on this port (its URL may name another host), else on 127.0.0.1
        members.stream()
            .filter(url -> url.endsWith(":" + port))
            .findFirst()
            .orElse("http://127.0.0.1:" + port);
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(
        List.of(
            "--enable-native-access=ALL-UNNAMED",
            "-Xmx" + heap,
            "-XX:+UseSerialGC",
            "-cp",
            System.getProperty("java.class.path"),
            System.getProperty("dht.node.main", "dev.dht.node.Main"),
            "--self",
            self,
            "--cluster",
            members.isEmpty() ? self : String.join(",", members),
            "--data-dir",
            dataDir.toString(),
            "--event-loops",
            "1",
            "--storage-threads",
            "2",
            "--block-cache-mb",
            "8"));
    command.addAll(List.of(flags));
    Path log = dataDir.resolveSibling(dataDir.getFileName() + "-" + System.nanoTime() + ".log");
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.redirectOutput(log.toFile());
    builder.environment().keySet().removeIf(name -> name.startsWith("DHT_"));
    builder.environment().putAll(env);
    try {
      return new NodeProcess(
          builder.start(), log, port, new Launch(dataDir, port, members, heap, env, flags));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Starts {@code envs.size()} member processes of one cluster under {@code root}, the i-th with
   * {@code envs.get(i)} added to its environment, all with a cluster secret and {@code flags}.
   */
  public static List<NodeProcess> startCluster(
      Path root, String heap, List<java.util.Map<String, String>> envs, String... flags) {
    return startCluster(root, heap, envs, "/health/ready", flags);
  }

  /**
   * Like {@link #startCluster}, but returns once every member is live, Ready or not (members that
   * restore a backup are not Ready until they have).
   */
  public static List<NodeProcess> startClusterLive(
      Path root, String heap, List<java.util.Map<String, String>> envs, String... flags) {
    return startCluster(root, heap, envs, "/health/live", flags);
  }

  private static List<NodeProcess> startCluster(
      Path root,
      String heap,
      List<java.util.Map<String, String>> envs,
      String health,
      String... flags) {
    List<Integer> ports = envs.stream().map(e -> Ports.free()).toList();
    List<String> members = ports.stream().map(p -> "http://127.0.0.1:" + p).toList();
    List<String> all = new ArrayList<>(List.of(LocalCluster.secretFlags(root, CLUSTER_SECRET)));
    all.addAll(List.of(flags));
    List<NodeProcess> nodes = new ArrayList<>();
    try {
      for (int i = 0; i < ports.size(); i++) {
        NodeProcess node =
            launch(
                root.resolve("node-" + i),
                ports.get(i),
                members,
                heap,
                envs.get(i),
                all.toArray(String[]::new));
        nodes.add(node);
        node.awaitHealth(health);
      }
    } catch (RuntimeException | Error e) {
      nodes.forEach(NodeProcess::close);
      throw e;
    }
    return nodes;
  }

  /**
   * Waits (at most 30 s) until a write through this node reaches {@code from} replicas: a new
   * process's first peer connections may fail on a loaded machine, and such a write gets 504.
   */
  public void awaitWritesReach(int from) {
    await("a write at " + from + "/" + from + " through the node on port " + port)
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(200))
        .until(() -> client.put("warm-up", "w", from, from).status() == 201);
  }

  /** Waits (at most 20 s) until the node has no request and no body byte in flight. */
  public void awaitNothingInFlight() {
    await("node on port " + port + " has nothing in flight")
        .atMost(Duration.ofSeconds(20))
        .pollInterval(Duration.ofMillis(100))
        .until(() -> {
          MetricsText metrics = MetricsText.of(client);
          return metrics.value("dht_inflight_requests", "") == 0
              && metrics.value("dht_inflight_body_bytes", "") == 0;
        });
  }

  public int port() {
    return port;
  }

  public DhtClient client() {
    return client;
  }

  public boolean alive() {
    return process.isAlive();
  }

  public long pid() {
    return process.pid();
  }

  /** Sends SIGTERM and returns at once. */
  public void signalTerm() {
    process.destroy();
  }

  /** Waits up to {@code seconds} for the exit; its code, or -1 if the process still runs. */
  public int awaitExit(long seconds) throws InterruptedException {
    return process.waitFor(seconds, TimeUnit.SECONDS) ? process.exitValue() : -1;
  }

  /**
   * Sends SIGTERM and waits up to {@code seconds} for the exit; returns the exit code, or -1 if the
   * process was still running (it is then left running for {@link #close()}).
   */
  public int terminate(long seconds) throws InterruptedException {
    client.close();
    process.destroy();
    return process.waitFor(seconds, TimeUnit.SECONDS) ? process.exitValue() : -1;
  }

  public String log() {
    try {
      return Files.exists(log) ? Files.readString(log) : "(no log)";
    } catch (IOException e) {
      return "(log unreadable: " + e + ")";
    }
  }

  /** Stops the process if it still runs: SIGTERM (so it cleans up), SIGKILL after 10 s. */
  @Override
  public void close() {
    client.close();
    try {
      if (process.isAlive()) {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
          process.destroyForcibly();
          process.waitFor(10, TimeUnit.SECONDS);
        }
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  /** Waits until {@code path} answers 200; closes the node and fails if it does not in 30 s. */
  private void awaitHealth(String path) {
    try {
      await("node process on port " + port + " " + path)
          .atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofMillis(100))
          .failFast("the node process exited", () -> !process.isAlive())
          .ignoreExceptions()
          .until(() -> client.send("GET", path, BodyPublishers.noBody()).status() == 200);
    } catch (RuntimeException | AssertionError e) {
      close();
      throw new IllegalStateException("node did not start; log:\n" + log(), e);
    }
  }
}
