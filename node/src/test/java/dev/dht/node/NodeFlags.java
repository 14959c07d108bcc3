package dev.dht.node;

import java.io.IOException;

/**
 * Test bridge to the CLI: builds a {@link NodeConfig} from the same flags a node process takes, so
 * in-JVM test nodes are configured exactly like real ones (and keep compiling when the config
 * record grows). A flag given twice keeps its last value.
 */
public final class NodeFlags {
  private NodeFlags() {}

  public static NodeConfig parse(String... args) throws IOException {
    return Main.config(args);
  }
}
