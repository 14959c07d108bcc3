package dev.dht.loadgen.cli;

import picocli.CommandLine;

/** Standalone entry point: {@code java -cp ... dev.dht.loadgen.cli.LoadGenMain --rate 1000 ...}. */
public final class LoadGenMain {
  private LoadGenMain() {}

  public static void main(String[] args) {
    System.exit(new CommandLine(new LoadGenCommand()).execute(args));
  }
}
