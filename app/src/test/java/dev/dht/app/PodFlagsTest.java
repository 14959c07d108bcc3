package dev.dht.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.contract.NodeFlags;
import dev.dht.node.NodeConfig;
import dev.dht.node.tls.TlsFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The flags the operator passes to a node's pod are the jar's, and mean what the operator meant.
 */
class PodFlagsTest {
  @TempDir Path dir;

  @Test
  void theJarTakesEveryFlagTheOperatorPasses() throws Exception {
    Path members = Files.writeString(dir.resolve("members"), "epoch 1\nhttp://demo-0.peers:8080\n");
    Path secret = Files.writeString(dir.resolve("secret"), "s3cret\n");
    Path users =
        Files.writeString(
            dir.resolve("users.json"), "{\"revision\": 1, \"authentication\": \"required\"}");
    var pod =
        new NodeFlags.Pod(
            8080,
            new NodeFlags.Tls(7070, 9090, "/tls/tls.crt", "/tls/tls.key", "/tls/ca.crt"),
            dir.resolve("data").toString(),
            "http://demo-0.peers:8080",
            members.toString(),
            secret.toString(),
            dir.resolve("also-accepted").toString(),
            users.toString(),
            dir.resolve("backup-store.json").toString(),
            dir.resolve("restore.json").toString(),
            2,
            3,
            512,
            700,
            4096,
            60,
            5000);
    var main = new DhtMain();
    new CommandLine(main).parseArgs(pod.args().toArray(String[]::new));
    NodeConfig config = main.node.config();

    assertThat(config.port()).isEqualTo(8080);
    assertThat(config.peerPort()).isEqualTo(7070);
    assertThat(config.adminPort()).isEqualTo(9090);
    assertThat(config.tls())
        .isEqualTo(
            new TlsFiles(Path.of("/tls/tls.crt"), Path.of("/tls/tls.key"), Path.of("/tls/ca.crt")));
    assertThat(config.dataDir()).isEqualTo(dir.resolve("data"));
    assertThat(config.self()).isEqualTo("http://demo-0.peers:8080");
    assertThat(config.clusterFile()).isEqualTo(members);
    assertThat(config.clusterSecret()).isEqualTo("s3cret");
    assertThat(config.alsoAcceptedSecretFile()).isEqualTo(dir.resolve("also-accepted"));
    assertThat(config.usersFile()).isEqualTo(users);
    // a missing restore file restores nothing (the operator drops it once every node restored)
    assertThat(config.backups())
        .isEqualTo(new NodeConfig.Backups(dir.resolve("backup-store.json"), null));
    assertThat(config.eventLoops()).isEqualTo(2);
    assertThat(config.storageThreads()).isEqualTo(3);
    assertThat(config.maxInflight()).isEqualTo(512);
    assertThat(config.requestTimeoutMs()).isEqualTo(700);
    assertThat(config.maxValueBytes()).isEqualTo(4096);
    assertThat(config.shutdownDelayMs()).isEqualTo(5000);
    assertThat(main.warmUpSeconds).isEqualTo(60);
  }
}
