package dev.dht.app;

import dev.dht.contract.NodeFlags;
import dev.dht.loadgen.cli.LoadGenCommand;
import dev.dht.node.Node;
import dev.dht.node.NodeOptions;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.function.IntPredicate;
import picocli.CommandLine;

/**
 * Three nodes in this JVM, on loopback in a scratch directory, and the load generator against them
 * (PUT, GET, then mixed, at ack 2 of 3): a coordinator's, a replica's and a client's code paths run
 * hot for a while. A node runs it before it serves ({@code --warm-up-s}, {@link WarmUp}), so that
 * its first clients meet compiled code.
 */
final class Training {
  private static final List<String> WORKLOADS = List.of("put", "get", "mixed");

  private Training() {}

  /**
   * Runs load phases of {@code phaseSeconds} each (PUT, GET, mixed, PUT, ...) as long as {@code
   * another} accepts the number of phases run so far; then closes the nodes. Returns the number of
   * phases that failed.
   */
  static int run(Path dir, int phaseSeconds, int rate, IntPredicate another) throws IOException {
    Files.createDirectories(dir);
    Path secret = dir.resolve("secret");
    Files.writeString(secret, randomSecret());
    var urls = new ArrayList<String>();
    for (int port : freePorts(3)) {
      urls.add("http://127.0.0.1:" + port);
    }
    String members = String.join(",", urls);
    var nodes = new ArrayList<Node>();
    try {
      for (int i = 0; i < urls.size(); i++) {
        nodes.add(
            Node.start(
                NodeOptions.parse(
                    NodeFlags.SELF + "=" + urls.get(i),
                    NodeFlags.CLUSTER + "=" + members,
                    NodeFlags.LISTEN_ADDRESS + "=127.0.0.1",
                    NodeFlags.DATA_DIR + "=" + dir.resolve("node-" + i),
                    NodeFlags.CLUSTER_SECRET_FILE + "=" + secret,
                    NodeFlags.REPAIR_INTERVAL_S + "=0",
                    NodeFlags.HINT_WINDOW_S + "=0",
                    NodeFlags.EVENT_LOOPS + "=1",
                    NodeFlags.STORAGE_THREADS + "=2")));
      }
      int failed = 0;
      PrintWriter out = new PrintWriter(Writer.nullWriter());
      for (int phase = 0; another.test(phase); phase++) {
        String workload = WORKLOADS.get(phase % WORKLOADS.size());
        var generator = new CommandLine(new LoadGenCommand()).setOut(out).setErr(out);
        int exit =
            generator.execute(
                "--url=" + members,
                "--workload=" + workload,
                "--rate=" + rate,
                "--duration=" + phaseSeconds + "s",
                "--warmup=0s",
                "--connections=16",
                "--threads=2",
                "--keyspace=10000",
                "--ack=2",
                "--from=3");
        failed += exit == 0 ? 0 : 1;
      }
      return failed;
    } finally {
      nodes.forEach(Node::close);
    }
  }

  /** A secret of this run only: nothing outside this JVM can write to the training nodes. */
  private static String randomSecret() {
    byte[] bytes = new byte[32];
    new SecureRandom().nextBytes(bytes);
    return HexFormat.of().formatHex(bytes);
  }

  private static List<Integer> freePorts(int count) throws IOException {
    var sockets = new ArrayList<ServerSocket>();
    try {
      for (int i = 0; i < count; i++) {
        sockets.add(new ServerSocket(0));
      }
      return sockets.stream().map(ServerSocket::getLocalPort).toList();
    } finally {
      for (var s : sockets) {
        s.close();
      }
    }
  }
}
