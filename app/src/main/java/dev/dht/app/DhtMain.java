package dev.dht.app;

import dev.dht.app.launch.Relaunch;
import dev.dht.contract.NodeFlags;
import dev.dht.loadgen.cli.BareServerCommand;
import dev.dht.loadgen.cli.LoadGenCommand;
import dev.dht.node.Main;
import dev.dht.node.NodeConfig;
import dev.dht.node.NodeOptions;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The one jar and image: {@code java -jar dht.jar [flags]} runs a node (its flags: {@link
 * NodeOptions}; with {@code --warm-up-s}, after a {@link WarmUp}; started with no heap option, in a
 * JVM started again with {@link dev.dht.app.launch.HeapDefaults}); {@code loadgen ...} the load
 * generator; {@code bare-server} a fixed-answer Vert.x server for benchmarks.
 */
@Command(
    name = "dht",
    mixinStandardHelpOptions = true,
    version = "dht 0.1.0",
    description = "A dht node: serves the entry API and replicates to its peers.",
    subcommands = {LoadGenCommand.class, BareServerCommand.class})
public final class DhtMain implements Callable<Integer> {
  @Mixin NodeOptions node;

  @Option(
      names = NodeFlags.WARM_UP_S,
      defaultValue = "${env:DHT_WARM_UP_S:-0}",
      description =
          "before serving, run a training load on three scratch nodes in this JVM until the JIT is"
              + " quiet, for at most this long, so that the first clients meet compiled code"
              + " (0: none)")
  int warmUpSeconds;

  @Option(
      names = NodeFlags.WARM_UP_RATE,
      defaultValue = "${env:DHT_WARM_UP_RATE:-300}",
      description = "requests per second of the warm-up")
  int warmUpRate;

  public static void main(String[] args) {
    System.exit(Main.commandLine(new DhtMain()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    NodeConfig config = node.config();
    if (warmUpSeconds < 0) {
      throw new IllegalArgumentException(
          NodeFlags.WARM_UP_S + " must not be negative, got " + warmUpSeconds);
    }
    if (warmUpRate <= 0) {
      throw new IllegalArgumentException(
          NodeFlags.WARM_UP_RATE + " must be positive, got " + warmUpRate);
    }
    Relaunch.withHeapDefaultsIfNoneChosen();
    if (warmUpSeconds > 0) {
      WarmUp.run(warmUpSeconds, warmUpRate);
    }
    return Main.serve(config);
  }
}
