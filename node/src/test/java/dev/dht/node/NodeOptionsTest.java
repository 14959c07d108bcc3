package dev.dht.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NodeOptionsTest {
  @TempDir Path dir;

  @Test
  void aClusterOfSeveralMembersNeedsASecretOrAnExplicitInsecureFlag() throws Exception {
    String[] twoMembers = {
      "--self", "http://127.0.0.1:1", "--cluster", "http://127.0.0.1:1,http://127.0.0.1:2"
    };
    assertThatThrownBy(() -> NodeOptions.parse(twoMembers))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cluster secret")
        .hasMessageContaining("--insecure");

    StringWriter err = new StringWriter();
    int exit =
        Main.commandLine(new Main())
            .setErr(new PrintWriter(err))
            .execute(concat(twoMembers, "--data-dir", dir.toString()));
    assertThat(exit).isEqualTo(2);
    assertThat(err.toString())
        .startsWith("dht-node: a cluster of 2 members needs a cluster secret");
    assertThat(dir).isEmptyDirectory(); // refused before anything was opened

    assertThat(NodeOptions.parse(concat(twoMembers, "--insecure")).clusterSecret()).isNull();
    Path secret = Files.writeString(dir.resolve("secret"), "s3cret\n");
    assertThat(
            NodeOptions.parse(concat(twoMembers, "--cluster-secret-file", secret.toString()))
                .clusterSecret())
        .isEqualTo("s3cret");
    assertThat(NodeOptions.parse("--self", "http://127.0.0.1:1").clusterSecret()).isNull();
  }

  private static String[] concat(String[] head, String... tail) {
    String[] all = java.util.Arrays.copyOf(head, head.length + tail.length);
    System.arraycopy(tail, 0, all, head.length, tail.length);
    return all;
  }
}
