package dev.dht.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dht.node.auth.UsersDocumentExamples;
import dev.dht.node.tls.TlsFiles;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
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
        .startsWith("dht-node: a cluster of 2 members needs peer certificates");
    assertThat(dir).isEmptyDirectory(); // refused before anything was opened

    assertThat(NodeOptions.parse(concat(twoMembers, "--insecure")).clusterSecret()).isNull();
    Path secret = Files.writeString(dir.resolve("secret"), "s3cret\n");
    assertThat(
            NodeOptions.parse(concat(twoMembers, "--cluster-secret-file", secret.toString()))
                .clusterSecret())
        .isEqualTo("s3cret");
    assertThat(NodeOptions.parse("--self", "http://127.0.0.1:1").clusterSecret()).isNull();
  }

  @Test
  void everyFlagGoesIntoTheConfig() throws Exception {
    Path members = Files.writeString(dir.resolve("members"), "http://a:1\nhttp://b:2\n");
    Path secret = Files.writeString(dir.resolve("secret"), " s1\n");
    Path alsoAccepted = Files.writeString(dir.resolve("also"), "s2\n");
    Path users =
        Files.writeString(dir.resolve("users.json"), UsersDocumentExamples.ONE_USER.toJson());
    NodeConfig config =
        NodeOptions.parse(
            "--port=9000",
            "--listen-address=127.0.0.2",
            "--data-dir=d",
            "--self=http://b:2",
            "--cluster=http://ignored:1",
            "--cluster-file=" + members,
            "--event-loops=3",
            "--storage-threads=5",
            "--max-inflight=6",
            "--request-timeout-ms=7",
            "--default-ack=1",
            "--default-from=3",
            "--max-key-bytes=8",
            "--max-value-bytes=9",
            "--cluster-secret-file=" + secret,
            "--cluster-secret-also-accepted-file=" + alsoAccepted,
            "--idle-timeout-s=10",
            "--body-timeout-ms=11",
            "--max-body-bytes-inflight=12",
            "--max-internal-inflight=13",
            "--max-internal-body-bytes-inflight=14",
            "--peer-max-pending-ops=15",
            "--peer-max-pending-bytes=16",
            "--max-clock-offset-ms=17",
            "--shutdown-delay-ms=18",
            "--hint-window-s=19",
            "--max-hint-bytes=20",
            "--hint-replay-bytes-per-s=21",
            "--repair-interval-s=22",
            "--repair-bytes-per-s=23",
            "--tombstone-grace-s=24",
            "--node-id=25",
            "--block-cache-mb=2",
            "--peer-port=9001",
            "--admin-port=9002",
            "--tls-cert-file=c.pem",
            "--tls-key-file=k.pem",
            "--tls-ca-file=ca.pem",
            "--users-file=" + users);
    assertThat(config)
        .isEqualTo(
            new NodeConfig(
                9000,
                "127.0.0.2",
                Path.of("d"),
                "http://b:2",
                List.of("http://a:1", "http://b:2"),
                members,
                3,
                5,
                6,
                7,
                1,
                3,
                8,
                9,
                "s1",
                "s2",
                secret,
                alsoAccepted,
                2L << 20,
                10,
                11,
                12,
                13,
                14,
                15,
                16,
                17,
                18,
                25,
                new NodeConfig.Hints(19_000, 20, 21),
                new NodeConfig.Repair(22_000, 23, 24_000, true),
                9001,
                9002,
                new TlsFiles(Path.of("c.pem"), Path.of("k.pem"), Path.of("ca.pem")),
                users,
                UsersDocumentExamples.ONE_USER,
                NodeConfig.Backups.NONE,
                true));
  }

  @Test
  void withoutFlagsANodeAloneOnLocalhost8080() throws Exception {
    long heap = Runtime.getRuntime().maxMemory();
    assertThat(NodeOptions.parse())
        .as("the defaults (no DHT_* variable set)")
        .isEqualTo(
            new NodeConfig(
                8080,
                "0.0.0.0",
                Path.of("data"),
                "http://localhost:8080",
                List.of("http://localhost:8080"),
                null,
                Runtime.getRuntime().availableProcessors(),
                4,
                4096,
                1000,
                0,
                0,
                1024,
                1048576,
                null,
                null,
                null,
                null,
                64L << 20,
                60,
                5000,
                heap / 8,
                1024,
                heap / 8,
                4096,
                heap / 16,
                500,
                0,
                0,
                new NodeConfig.Hints(10_800_000, 1L << 30, 8 << 20),
                new NodeConfig.Repair(3_600_000, 16 << 20, 86_400_000, true),
                8080,
                8080,
                null,
                null,
                null,
                NodeConfig.Backups.NONE,
                true));
    NodeConfig config =
        NodeOptions.parse(
            "--port=7000",
            "--cluster=http://x-3:1,http://y:2",
            "--insecure",
            "--default-from=2",
            "--cluster-secret-file=" + Files.writeString(dir.resolve("empty"), "\n"),
            "--cluster-secret-also-accepted-file=" + dir.resolve("none"));
    assertThat(config.port()).isEqualTo(7000);
    assertThat(config.self()).isEqualTo("http://x-3:1");
    assertThat(config.nodeId()).as("the StatefulSet ordinal in --self's host").isEqualTo(3);
    assertThat(config.defaultFrom()).isEqualTo(2);
    assertThat(config.clusterSecret()).as("an empty secret: none").isNull();
    assertThat(config.alsoAcceptedSecret()).as("a missing file: none").isNull();
    assertThat(NodeOptions.parse("--self=http://y:2").port()).isEqualTo(2);
    assertThat(NodeOptions.parse("--port=3").self()).isEqualTo("http://localhost:3");
  }

  @Test
  void eachLimitIsCheckedWithItsMessage() {
    for (String flag :
        List.of(
            "--storage-threads",
            "--max-inflight",
            "--request-timeout-ms",
            "--max-key-bytes",
            "--max-value-bytes",
            "--idle-timeout-s",
            "--body-timeout-ms",
            "--max-internal-inflight",
            "--peer-max-pending-ops",
            "--max-clock-offset-ms",
            "--repair-bytes-per-s",
            "--tombstone-grace-s",
            "--max-hint-bytes",
            "--hint-replay-bytes-per-s")) {
      assertThatThrownBy(() -> NodeOptions.parse(flag + "=0"))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage(flag + " must be positive, got 0");
    }
    for (String flag :
        List.of(
            "--max-body-bytes-inflight",
            "--max-internal-body-bytes-inflight",
            "--peer-max-pending-bytes",
            "--shutdown-delay-ms",
            "--hint-window-s",
            "--repair-interval-s")) {
      assertThatThrownBy(() -> NodeOptions.parse(flag + "=-1"))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage(flag + " must not be negative, got -1");
    }
    assertThatThrownBy(() -> NodeOptions.parse("--max-value-bytes=1073741825"))
        .hasMessage("--max-value-bytes must be at most 1073741824, got 1073741825");
    assertThatThrownBy(() -> NodeOptions.parse("--max-clock-offset-ms=86400001"))
        .hasMessage("--max-clock-offset-ms must be at most 86400000, got 86400001");
    assertThatThrownBy(() -> NodeOptions.parse("--tombstone-grace-s=60", "--repair-interval-s=60"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "--tombstone-grace-s (60) must be longer than --repair-interval-s (60): a replica that"
                + " missed a delete gets its tombstone from repair, and must get it before the"
                + " others purge it, or the deleted value comes back");
    assertThatThrownBy(() ->
            NodeOptions.parse(
                "--tombstone-grace-s=600", "--repair-interval-s=60", "--hint-window-s=600"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "--tombstone-grace-s (600) must be longer than --hint-window-s (600): a hint replayed"
                + " after its tombstone was purged elsewhere would bring a deleted value back");
    assertThatThrownBy(() -> NodeOptions.parse("--cluster=http://a:1,http://b:2,http://c:3"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "a cluster of 3 members needs peer certificates (--tls-cert-file) or a cluster secret"
                + " (--cluster-secret-file), or else anyone who reaches a node can write to its"
                + " replicas; --insecure allows it for experiments");
  }

  @Test
  void tlsComesWithItsThreeFilesAndAPeerPortOfItsOwn() throws Exception {
    String[] tls = {"--tls-cert-file=c", "--tls-key-file=k", "--tls-ca-file=ca"};
    assertThatThrownBy(() -> NodeOptions.parse("--tls-cert-file=c", "--tls-key-file=k"))
        .hasMessageContaining("go together");
    assertThatThrownBy(() -> NodeOptions.parse(tls))
        .as("peers would share the client port")
        .hasMessageContaining("TLS needs a separate --peer-port");
    assertThatThrownBy(() -> NodeOptions.parse("--peer-port=9001", "--admin-port=9001"))
        .hasMessageContaining("must differ");
    assertThatThrownBy(() -> NodeOptions.parse("--peer-port=70000"))
        .hasMessageContaining("--peer-port must be a port");
    String[] twoMembersWithTls = {
      "--cluster=http://a:1,http://b:2", "--peer-port=9001", tls[0], tls[1], tls[2]
    };
    assertThat(NodeOptions.parse(twoMembersWithTls).clusterSecret())
        .as("peer certificates stand in for the cluster secret")
        .isNull();
    NodeConfig shared = NodeOptions.parse("--port=7000", "--admin-port=7001");
    assertThat(shared.peerPort()).as("0: the client port").isEqualTo(7000);
    assertThat(shared.peerPortSeparate()).isFalse();
    assertThat(shared.adminPort()).isEqualTo(7001);
  }

  @Test
  void theFirstProblemInTheOrderOfTheChecksIsTheOneReported() {
    assertThatThrownBy(
            () -> NodeOptions.parse("--max-hint-bytes=0", "--shutdown-delay-ms=-1", "--port=1"))
        .hasMessageStartingWith("--shutdown-delay-ms ");
    assertThatThrownBy(() -> NodeOptions.parse("--max-hint-bytes=0", "--storage-threads=0"))
        .hasMessageStartingWith("--storage-threads ");
    assertThatThrownBy(() -> NodeOptions.parse("--max-hint-bytes=0", "--tombstone-grace-s=1"))
        .hasMessageStartingWith("--tombstone-grace-s (1) must be longer");
    assertThatThrownBy(
            () -> NodeOptions.parse("--cluster=http://a:1,http://b:2", "--max-hint-bytes=0"))
        .hasMessageStartingWith("--max-hint-bytes ");
    assertThatThrownBy(() -> NodeOptions.parse("--cluster=http://a:1,http://b:2", "--node-id=256"))
        .as("the secret before the node id")
        .hasMessageStartingWith("a cluster of 2 members");
    assertThatThrownBy(
            () -> NodeOptions.parse("--cluster-file=" + dir.resolve("none"), "--storage-threads=0"))
        .as("the files are read before the limits are checked")
        .isInstanceOf(NoSuchFileException.class);
    assertThatThrownBy(
            () -> NodeOptions.parse("--default-ack=3", "--default-from=2", "--storage-threads=0"))
        .as("the replication defaults before the limits")
        .hasMessageStartingWith("--default-ack and --default-from need 0 <= ack <= from");
    assertThatThrownBy(() -> NodeOptions.parse("--settings-file=/etc/dht/settings.properties"))
        .as("a pod of an older operator's template: refused, not silently other defaults")
        .hasMessageStartingWith("--settings-file is no longer read");
  }

  @Test
  void aUsersFileThatIsMissingOrInvalidKeepsTheNodeFromStarting() throws Exception {
    StringWriter err = new StringWriter();
    int exit =
        Main.commandLine(new Main())
            .setErr(new PrintWriter(err))
            .execute("--data-dir", dir.resolve("data").toString(), "--users-file", "/no/such");
    assertThat(exit).isEqualTo(2);
    assertThat(err.toString()).startsWith("dht-node: --users-file /no/such: no such file");
    assertThat(dir).isEmptyDirectory(); // refused before anything was opened

    Path invalid = Files.writeString(dir.resolve("users.json"), "{\"revision\": 1}");
    assertThatThrownBy(() -> NodeOptions.parse("--users-file=" + invalid))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "--users-file " + invalid + ": not a valid users document: authentication: missing");
    Path valid = Files.writeString(dir.resolve("ok.json"), UsersDocumentExamples.ONE_USER.toJson());
    assertThat(NodeOptions.parse("--users-file=" + valid).users())
        .isEqualTo(UsersDocumentExamples.ONE_USER);
  }

  private static String[] concat(String[] head, String... tail) {
    String[] all = java.util.Arrays.copyOf(head, head.length + tail.length);
    System.arraycopy(tail, 0, all, head.length, tail.length);
    return all;
  }
}
