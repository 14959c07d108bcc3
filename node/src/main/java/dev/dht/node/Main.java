package dev.dht.node;

import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code dht-node [flags]}: runs a node until SIGTERM. The flags are {@link NodeOptions}. */
@Command(
    name = "dht-node",
    mixinStandardHelpOptions = true,
    version = "dht-node 0.1.0",
    description = "A dht node: serves the entry API and replicates to its peers.")
public final class Main implements Callable<Integer> {
  @Mixin NodeOptions options;

  public static void main(String[] args) {
    System.exit(commandLine(new Main()).execute(args));
  }

  /**
   * The CLI of {@code command}; a configuration error ({@link IllegalArgumentException}) prints its
   * reason, without a stack trace, and exits with 2.
   */
  public static CommandLine commandLine(Object command) {
    return new CommandLine(command)
        .setExecutionExceptionHandler((e, cmd, parsed) -> {
          if (e instanceof IllegalArgumentException) {
            cmd.getErr().println("dht-node: " + e.getMessage());
            return 2;
          }
          throw e;
        });
  }

  @Override
  public Integer call() throws Exception {
    return serve(options.config());
  }

  /** Starts a node with {@code config} and runs it until the JVM is asked to stop (SIGTERM). */
  public static int serve(NodeConfig config) throws InterruptedException {
    Node node = Node.start(config);
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  node.close();
                  stopped.countDown();
                },
                "dht-shutdown"));
    stopped.await();
    return 0;
  }
}
