package dev.dht.node.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpRequest.BodyPublishers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A rotation of the cluster secret on running nodes, each re-reading its own files as the kubelet
 * updates them one by one: the new secret is first also accepted everywhere, then sent (the old one
 * also accepted), then the old one is dropped. Writes at 3/3 through every node succeed at every
 * step; afterwards the old secret is refused. A secret file that disappears keeps the secret.
 */
class SecretRotationTest {
  private static final String OLD = "old-secret-0123456789";
  private static final String NEW = "new-secret-9876543210";
  private static final String HEADER = "X-Dht-Cluster-Secret";

  @TempDir Path root;
  private LocalCluster cluster;
  private int writes;

  @AfterEach
  void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void aRotationNeverRefusesAPeerAndEndsWithTheOldSecretRefused() throws Exception {
    cluster = LocalCluster.start(root, 3, "--repair-interval-s", "0", "--hint-window-s", "0");
    cluster.stopAll();
    for (int i = 0; i < 3; i++) {
      Files.createDirectories(dir(i));
      Files.writeString(dir(i).resolve("secret"), OLD + "\n");
      cluster.start(
          i,
          "--cluster-secret-file",
          dir(i).resolve("secret").toString(),
          "--cluster-secret-also-accepted-file",
          dir(i).resolve("also-accepted").toString());
    }
    writeThroughEveryNode();

    // 1. every node also accepts the new secret
    for (int i = 0; i < 3; i++) {
      Files.writeString(dir(i).resolve("also-accepted"), NEW);
      awaitFingerprints(i, OLD, NEW);
      writeThroughEveryNode();
    }
    // 2. one node after the other sends the new one and also accepts the old one
    for (int i = 0; i < 3; i++) {
      Files.writeString(dir(i).resolve("secret"), NEW);
      Files.writeString(dir(i).resolve("also-accepted"), OLD);
      awaitFingerprints(i, NEW, OLD);
      writeThroughEveryNode();
    }
    // 3. the old one is dropped
    for (int i = 0; i < 3; i++) {
      Files.delete(dir(i).resolve("also-accepted"));
      awaitFingerprints(i, NEW);
      writeThroughEveryNode();
    }
    for (int i = 0; i < 3; i++) {
      assertThat(adminRepair(i, OLD)).as("node %d refuses the old secret", i).isEqualTo(401);
      assertThat(adminRepair(i, NEW)).as("node %d takes the new one", i).isIn(202, 409);
    }

    // a deleted secret file (a deleted Kubernetes Secret) keeps the secret in force
    Files.delete(dir(1).resolve("secret"));
    Thread.sleep(2500);
    awaitFingerprints(1, NEW);
    writeThroughEveryNode();
  }

  private Path dir(int i) {
    return root.resolve("secrets-" + i);
  }

  private void writeThroughEveryNode() {
    for (int i = 0; i < 3; i++) {
      String key = "rotation-" + writes++;
      assertThat(cluster.client(i).put(key, "v", 3, 3).status())
          .as("3/3 write of %s through node %d", key, i)
          .isEqualTo(201);
    }
  }

  private int adminRepair(int node, String secret) {
    return cluster
        .client(node)
        .send("POST", "/v0/admin/repair", BodyPublishers.noBody(), Map.of(HEADER, secret))
        .status();
  }

  private void awaitFingerprints(int node, String... secrets) {
    List<String> expected = java.util.Arrays.stream(secrets).map(SecretRotationTest::fp).toList();
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> {
          String body =
              cluster.client(node).send("GET", "/v0/admin/status", BodyPublishers.noBody()).text();
          return body.contains("\"secretFingerprints\":" + json(expected));
        });
  }

  private static String json(List<String> values) {
    return values.stream().map(v -> "\"" + v + "\"").toList().toString().replace(", ", ",");
  }

  private static String fp(String secret) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.UTF_8)))
          .substring(0, 12);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
