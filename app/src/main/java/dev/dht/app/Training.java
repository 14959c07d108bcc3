package dev.dht.app;

import dev.dht.contract.NodeFlags;
import dev.dht.loadgen.cli.LoadGenCommand;
import dev.dht.node.Node;
import dev.dht.node.NodeOptions;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.net.InetAddress;
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
  static final String LOOPBACK = "127.0.0.1";

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
      urls.add("http://" + LOOPBACK + ":" + port);
    }
    String members = String.join(",", urls);
    var nodes = new ArrayList<Node>();
    try {
      for (int i = 0; i < urls.size(); i++) {
        nodes.add(
            Node.start(
                NodeOptions.parse(
                    nodeArgs(urls.get(i), members, dir.resolve("node-" + i), secret))));
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

  /**
   * A training node's flags: it listens on loopback only (its peers and the load generator are in
   * this JVM) and takes the run's own secret, so nothing else on the host or the network can reach
   * or write to it during the warm-up.
   */
  static String[] nodeArgs(String self, String members, Path dataDir, Path secret) {
    return new String[] {
      NodeFlags.SELF + "=" + self,
      NodeFlags.CLUSTER + "=" + members,
      NodeFlags.LISTEN_ADDRESS + "=" + LOOPBACK,
      NodeFlags.DATA_DIR + "=" + dataDir,
      NodeFlags.CLUSTER_SECRET_FILE + "=" + secret,
      NodeFlags.REPAIR_INTERVAL_S + "=0",
      NodeFlags.HINT_WINDOW_S + "=0",
      NodeFlags.EVENT_LOOPS + "=1",
      NodeFlags.STORAGE_THREADS + "=2"
    };
  }

  /** A secret of this run only: nothing outside this JVM can write to the training nodes. */
  static String randomSecret() {
    byte[] bytes = new byte[32];
    new SecureRandom().nextBytes(bytes);
    return HexFormat.of().formatHex(bytes);
  }

  private static List<Integer> freePorts(int count) throws IOException {
    var sockets = new ArrayList<ServerSocket>();
    try {
      for (int i = 0; i < count; i++) {
        sockets.add(new ServerSocket(0, 1, InetAddress.getLoopbackAddress()));
      }
      return sockets.stream().map(ServerSocket::getLocalPort).toList();
    } finally {
      for (var s : sockets) {
        s.close();
      }
    }
  }
}
