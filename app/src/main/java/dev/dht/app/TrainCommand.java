package dev.dht.app;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code dht-node train}: the training run of the image's ahead-of-time cache ({@link Training}),
 * so that the cache holds the classes and method profiles of a coordinator, a replica and the
 * generator; then the JVM exits, which writes the cache ({@code -XX:AOTCacheOutput}).
 */
@Command(
    name = "train",
    mixinStandardHelpOptions = true,
    description = "Run three nodes and the load generator in this JVM for a while, then exit.")
public final class TrainCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

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
    return Training.run(dataDir, seconds, rate, spec.commandLine().getOut());
  }
}
