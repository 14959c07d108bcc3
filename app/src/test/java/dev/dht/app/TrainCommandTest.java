package dev.dht.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.node.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The image build's training run: three real nodes and the load generator, then a clean exit. */
class TrainCommandTest {
  @TempDir Path dir;

  @Test
  void runsThreeNodesAndTheLoadGeneratorThenStops() {
    StringWriter err = new StringWriter();
    int exit =
        Main.commandLine(new DhtMain())
            .setErr(new PrintWriter(err))
            .execute("train", "--data-dir", dir.toString(), "--seconds", "3", "--rate", "200");
    assertThat(exit).as(err.toString()).isZero();
    for (int i = 0; i < 3; i++) {
      assertThat(Files.isDirectory(dir.resolve("node-" + i))).isTrue();
    }
  }
}
