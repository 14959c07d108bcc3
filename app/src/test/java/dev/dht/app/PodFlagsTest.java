package dev.dht.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.contract.NodeFlags;
import dev.dht.node.NodeConfig;
import dev.dht.node.tls.TlsFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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
            5000,
            List.of(
                NodeFlags.MAX_KEY_BYTES + "=100",
                NodeFlags.BODY_TIMEOUT_MS + "=2000",
                NodeFlags.IDLE_TIMEOUT_S + "=30",
                NodeFlags.MAX_BODY_BYTES_INFLIGHT + "=1000000",
                NodeFlags.MAX_INTERNAL_INFLIGHT + "=64",
                NodeFlags.MAX_INTERNAL_BODY_BYTES_INFLIGHT + "=2000000",
                NodeFlags.PEER_MAX_PENDING_OPS + "=128",
                NodeFlags.PEER_MAX_PENDING_BYTES + "=3000000",
                NodeFlags.REPAIR_INTERVAL_S + "=600",
                NodeFlags.REPAIR_BYTES_PER_S + "=1048576",
                NodeFlags.TOMBSTONE_GRACE_S + "=7200",
                NodeFlags.HINT_WINDOW_S + "=1800",
                NodeFlags.MAX_HINT_BYTES + "=4194304",
                NodeFlags.HINT_REPLAY_BYTES_PER_S + "=65536",
                NodeFlags.MAX_CLOCK_OFFSET_MS + "=250",
                NodeFlags.BLOCK_CACHE_MB + "=128",
                NodeFlags.PEER_FRAMES + "=false",
                NodeFlags.STREAM_FILES + "=false"));
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
    // the settings of spec.limits, spec.maintenance, spec.clock, spec.rocksdb, spec.compatibility
    assertThat(config.maxKeyBytes()).isEqualTo(100);
    assertThat(config.bodyTimeoutMs()).isEqualTo(2000);
    assertThat(config.idleTimeoutSeconds()).isEqualTo(30);
    assertThat(config.maxBodyBytesInflight()).isEqualTo(1_000_000);
    assertThat(config.maxInternalInflight()).isEqualTo(64);
    assertThat(config.maxInternalBodyBytesInflight()).isEqualTo(2_000_000);
    assertThat(config.peerMaxPendingOps()).isEqualTo(128);
    assertThat(config.peerMaxPendingBytes()).isEqualTo(3_000_000);
    assertThat(config.repair().intervalMs()).isEqualTo(600_000);
    assertThat(config.repair().bytesPerSecond()).isEqualTo(1_048_576);
    assertThat(config.repair().tombstoneGraceMs()).isEqualTo(7_200_000);
    assertThat(config.repair().streamFiles()).isFalse();
    assertThat(config.hints()).isEqualTo(new NodeConfig.Hints(1_800_000, 4_194_304, 65_536));
    assertThat(config.maxClockOffsetMs()).isEqualTo(250);
    assertThat(config.blockCacheBytes()).isEqualTo(128L << 20);
    assertThat(config.peerFrames()).isFalse();
  }
}
