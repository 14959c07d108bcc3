package dev.dht.node;

import dev.dht.loadgen.LoadGenCommand;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code dht-node train}: the training run of the image's ahead-of-time cache. Three nodes in this
 * JVM and the load generator against them (PUT, GET, then mixed, at ack 2 of 3), so that the cache
 * holds the classes and method profiles of a coordinator, a replica and the generator; then the
 * nodes close and the JVM exits, which writes the cache ({@code -XX:AOTCacheOutput}).
 */
@Command(
    name = "train",
    mixinStandardHelpOptions = true,
    description = "Run three nodes and the load generator in this JVM for a while, then exit.")
public final class TrainCommand implements Callable<Integer> {
  @Option(names = "--data-dir", required = true, description = "scratch directory")
  Path dataDir;

  @Option(
      names = "--seconds",
      defaultValue = "30",
      description = "load time, split over PUT, GET and mixed (default: ${DEFAULT-VALUE})")
  int seconds;

  @Option(
      names = "--rate",
      defaultValue = "2000",
      description = "requests per second (default: ${DEFAULT-VALUE})")
  int rate;

  @Override
  public Integer call() throws Exception {
    Files.createDirectories(dataDir);
    Path secret = dataDir.resolve("secret");
    Files.writeString(secret, "training-only-secret");
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
                Main.config(
                    "--self=" + urls.get(i),
                    "--cluster=" + members,
                    "--data-dir=" + dataDir.resolve("node-" + i),
                    "--cluster-secret-file=" + secret,
                    "--event-loops=1",
                    "--storage-threads=2")));
      }
      int each = Math.max(seconds / 3, 1);
      int failed = 0;
      for (String workload : List.of("put", "get", "mixed")) {
        failed |=
            new CommandLine(new LoadGenCommand())
                .execute(
                    "--url=" + members,
                    "--workload=" + workload,
                    "--rate=" + rate,
                    "--duration=" + each + "s",
                    "--warmup=0s",
                    "--connections=16",
                    "--threads=2",
                    "--keyspace=10000",
                    "--ack=2",
                    "--from=3");
      }
      return failed;
    } finally {
      nodes.forEach(Node::close);
    }
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
