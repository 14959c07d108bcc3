package dev.dht.node.backup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.dht.contract.backup.BackupSummary;
import dev.dht.contract.backup.NodeBackupStatus;
import dev.dht.contract.backup.ObjectStoreSettings;
import dev.dht.contract.backup.RestoreSource;
import dev.dht.contract.backup.RestoreStatus;
import dev.dht.contract.backup.VerifyStatus;
import dev.dht.node.it.DhtClient;
import dev.dht.node.it.NodeProcess;
import java.net.http.HttpRequest.BodyPublishers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Backups and restores of real node processes to a real S3-compatible store (SeaweedFS): what a
 * backup holds, that a second one uploads only what changed, a restore into a cluster of another
 * size and replication, a verification, and the faults: the store or a node killed mid-backup, a
 * file missing or a bit flipped at verification, a file missing at restore.
 */
class BackupProcessTest {
  private static final String HEAP = "128m";

  @TempDir static Path storeDir;
  static SeaweedS3 s3;

  @TempDir Path root;

  @BeforeAll
  static void startStore() throws Exception {
    s3 = SeaweedS3.start(storeDir);
  }

  @AfterAll
  static void stopStore() {
    if (s3 != null) {
      s3.close();
    }
  }

  @Test
  void aRestoreIntoFourNodesHoldsEveryAcknowledgedWriteWithItsCopies() throws Exception {
    ObjectStoreSettings settings = settings("restore-any-size", 0);
    Map<String, String> expected = new TreeMap<>();
    BackupSummary first;
    BackupSummary second;
    List<NodeProcess> old = cluster(root.resolve("old"), 3, settings, null, 2, 3);
    try {
      DhtClient client = old.getFirst().client();
      for (int k = 0; k < 400; k++) {
        put(client, "key-" + k, "v1-" + k, expected);
      }
      for (int k = 0; k < 400; k += 5) {
        put(old.get(k % 3).client(), "key-" + k, "v2-" + k, expected);
      }
      for (int k = 1; k < 400; k += 7) {
        assertThat(old.get(k % 3).client().delete("key-" + k, 2, 3).status()).isEqualTo(202);
        expected.remove("key-" + k);
      }
      first = backup(old, "first");
      for (int k = 400; k < 450; k++) {
        put(client, "key-" + k, "v1-" + k, expected);
      }
      second = backup(old, "second");
      start(old, "first"); // complete in the store: refused, never rewritten
      await("a complete backup's id is refused")
          .atMost(Duration.ofSeconds(30))
          .until(() -> status(old.getFirst()).phase().equals(NodeBackupStatus.FAILED));
      assertThat(status(old.getFirst()).reason()).contains("complete in the store already");
    } finally {
      old.forEach(NodeProcess::close);
    }
    System.out.printf("first backup: %s%nsecond backup: %s%n", first, second);
    // members upload at once: a file two of them hold (the same OPTIONS) may go up twice
    assertThat(first.filesUploaded()).isGreaterThanOrEqualTo(first.files());
    assertThat(first.bytesUploaded()).isGreaterThanOrEqualTo(first.bytes());
    assertThat(second.bytesUploaded())
        .as("the second backup uploads what changed: %s after %s", second, first)
        .isLessThan(second.bytes() / 2);

    List<NodeProcess> restored =
        cluster(root.resolve("new"), 4, null, new RestoreSource(settings, "second"), 2, 3);
    try {
      for (NodeProcess node : restored) {
        awaitReady(node);
        RestoreStatus status = RestoreStatus.parse(admin(node, "GET", "/v0/admin/restore").text());
        assertThat(status.phase()).isEqualTo(RestoreStatus.COMPLETED);
        assertThat(status.membersRead()).isEqualTo(3);
      }
      for (int k = 0; k < 450; k++) {
        String key = "key-" + k;
        var reply = restored.get(k % 4).client().get(key, 2, 3);
        if (expected.containsKey(key)) {
          assertThat(reply.status()).as(key).isEqualTo(200);
          assertThat(reply.text()).as(key).isEqualTo(expected.get(key));
        } else {
          assertThat(reply.status()).as("deleted %s", key).isEqualTo(404);
        }
        int copies = 0;
        for (NodeProcess node : restored) {
          copies += node.stored(key) == null ? 0 : 1;
        }
        assertThat(copies).as("copies of %s", key).isEqualTo(3);
      }
    } finally {
      restored.forEach(NodeProcess::close);
    }
  }

  @Test
  void aBackupFailsWhenTheStoreDiesAndTheNextOneSucceeds() throws Exception {
    ObjectStoreSettings slow = settings("store-dies", 20_000);
    boolean storeDown = false;
    List<NodeProcess> nodes = cluster(root, 3, slow, null, 2, 3);
    try {
      for (int k = 0; k < 2000; k++) {
        put(nodes.getFirst().client(), "key-" + k, "x".repeat(100), new TreeMap<>());
      }
      start(nodes, "doomed");
      await("uploads begin")
          .atMost(Duration.ofSeconds(30))
          .until(() -> {
            NodeBackupStatus status = status(nodes.getFirst());
            return status.filesUploaded() > 0
                || status.bytesUploaded() > 0
                || status.filesTotal() > 0;
          });
      s3.kill();
      storeDown = true;
      for (NodeProcess node : nodes) {
        await("the backup fails on " + node.port())
            .atMost(Duration.ofSeconds(120))
            .until(() -> !status(node).phase().equals(NodeBackupStatus.RUNNING));
      }
      assertThat(nodes.stream().map(n -> status(n).phase())).contains(NodeBackupStatus.FAILED);
      NodeBackupStatus failed =
          nodes.stream()
              .map(BackupProcessTest::status)
              .filter(s -> s.reason() != null)
              .findFirst()
              .orElseThrow();
      assertThat(failed.reason()).isNotBlank();
      s3.restart();
      storeDown = false;
      BackupSummary next = backup(nodes, "after-the-outage");
      assertThat(next.members()).hasSize(3);
    } finally {
      nodes.forEach(NodeProcess::close);
      if (storeDown) {
        s3.restart();
      }
    }
  }

  @Test
  void aMemberKilledMidBackupLeavesNoCompleteBackupThatListsMissingFiles() throws Exception {
    ObjectStoreSettings slow = settings("node-dies", 20_000);
    List<NodeProcess> nodes = cluster(root, 3, slow, null, 2, 3);
    try {
      for (int k = 0; k < 2000; k++) {
        put(nodes.getFirst().client(), "key-" + k, "x".repeat(100), new TreeMap<>());
      }
      start(nodes, "interrupted");
      await("uploads begin")
          .atMost(Duration.ofSeconds(30))
          .until(() -> status(nodes.get(1)).filesTotal() > 0);
      nodes.get(1).kill();
      for (int n : List.of(0, 2)) {
        await()
            .atMost(Duration.ofSeconds(120))
            .until(() -> !status(nodes.get(n)).phase().equals(NodeBackupStatus.RUNNING));
      }
      var sealed = admin(nodes.getFirst(), "POST", "/v0/admin/backup/seal?id=interrupted");
      assertThat(sealed.status()).isEqualTo(409);
      assertThat(sealed.text()).contains("has no manifest");
      try (ObjectStore store = ObjectStore.open(slow)) {
        assertThat(store.size(BackupLayout.summary("interrupted"))).isEqualTo(-1);
      }
    } finally {
      nodes.forEach(NodeProcess::close);
    }
  }

  @Test
  void aVerificationPassesOnlyWhileTheBackupIsAsTakenAndARestoreFromAMissingFileFails()
      throws Exception {
    ObjectStoreSettings settings = settings("missing-file", 0);
    List<NodeProcess> old = cluster(root.resolve("old"), 3, settings, null, 2, 3);
    String lost;
    try {
      for (int k = 0; k < 100; k++) {
        put(old.getFirst().client(), "key-" + k, "v" + k, new TreeMap<>());
      }
      old.getFirst().client().delete("key-7", 2, 3);
      backup(old, "damaged");
      NodeProcess checker = old.get(1);
      VerifyStatus passed = verify(checker, "damaged");
      assertThat(passed.phase()).as("%s", passed).isEqualTo(VerifyStatus.PASSED);
      assertThat(passed.membersChecked()).isEqualTo(3);
      assertThat(passed.records())
          .as("the copies of 100 keys, the tombstone's included, at least ack=2 of each")
          .isBetween(200L, 300L);

      try (ObjectStore store = ObjectStore.open(settings)) {
        String largest =
            store.list(BackupLayout.FILES).stream()
                .map(store::relative)
                .max((x, y) -> Long.compare(store.size(x), store.size(y)))
                .orElseThrow();
        Path saved = root.resolve("saved");
        store.download(largest, saved, TransferPacer.of(0));
        byte[] rotten = Files.readAllBytes(saved);
        rotten[rotten.length / 2] ^= 1; // one bit flipped in the store: the size is the same
        Files.write(root.resolve("rotten"), rotten);
        store.upload(largest, root.resolve("rotten"), TransferPacer.of(0));
        VerifyStatus corrupt = verify(checker, "damaged");
        assertThat(corrupt.phase()).as("%s", corrupt).isEqualTo(VerifyStatus.FAILED);
        assertThat(corrupt.reason()).contains("corrupt in the store");
        store.upload(largest, saved, TransferPacer.of(0));
        assertThat(verify(checker, "damaged").phase()).isEqualTo(VerifyStatus.PASSED);

        String name = BackupLayout.manifest("damaged", 1);
        String manifest = store.get(name, NodeManifest.MAX_BYTES);
        store.put(name, manifest.replaceFirst("\"newest\":\\d+", "\"newest\":1"));
        VerifyStatus unbounded = verify(checker, "damaged");
        assertThat(unbounded.phase()).as("%s", unbounded).isEqualTo(VerifyStatus.FAILED);
        assertThat(unbounded.reason()).contains("member 1").contains("after the bound");
        store.put(name, manifest);

        // a manifest that leaves out a file its checkpoint needs: RocksDB finds it incomplete
        NodeManifest taken = NodeManifest.parse(manifest);
        List<NodeManifest.File> fewer =
            taken.files().stream().filter(f -> !f.name().endsWith(".sst")).toList();
        assertThat(fewer).hasSizeLessThan(taken.files().size());
        store.put(
            name,
            new NodeManifest(
                    taken.format(),
                    taken.backup(),
                    taken.member(),
                    taken.epoch(),
                    taken.members(),
                    taken.from(),
                    taken.cut(),
                    taken.newest(),
                    taken.createdMillis(),
                    fewer,
                    taken.filesUploaded(),
                    taken.bytesUploaded())
                .toJson());
        VerifyStatus incomplete = verify(checker, "damaged");
        assertThat(incomplete.phase()).as("%s", incomplete).isEqualTo(VerifyStatus.FAILED);
        assertThat(incomplete.reason()).contains("member 1").contains("cannot be read");
        store.put(name, manifest);

        lost = largest;
        store.delete(List.of(lost));
      }
      VerifyStatus missing = verify(checker, "damaged");
      assertThat(missing.phase()).as("%s", missing).isEqualTo(VerifyStatus.FAILED);
      assertThat(missing.reason()).contains("missing from the store").contains(lost);
      VerifyStatus unknown = verify(checker, "never-taken");
      assertThat(unknown.phase()).isEqualTo(VerifyStatus.FAILED);
      assertThat(unknown.reason()).contains("not complete in the store");
    } finally {
      old.forEach(NodeProcess::close);
    }
    List<NodeProcess> restored =
        cluster(root.resolve("new"), 1, null, new RestoreSource(settings, "damaged"), 1, 1);
    try {
      await("the restore fails")
          .atMost(Duration.ofSeconds(60))
          .until(() ->
              RestoreStatus.parse(admin(restored.getFirst(), "GET", "/v0/admin/restore").text())
                  .phase()
                  .equals(RestoreStatus.FAILED));
      RestoreStatus failed =
          RestoreStatus.parse(admin(restored.getFirst(), "GET", "/v0/admin/restore").text());
      assertThat(failed.reason()).contains("missing from the store").contains(lost);
      assertThat(
              restored
                  .getFirst()
                  .client()
                  .send("GET", "/health/ready", BodyPublishers.noBody())
                  .status())
          .isEqualTo(503);
    } finally {
      restored.forEach(NodeProcess::close);
    }
  }

  // --- helpers

  private ObjectStoreSettings settings(String prefix, long uploadBytesPerSecond) throws Exception {
    Path credentials = Files.createDirectories(root.resolve("credentials-" + prefix));
    Files.writeString(credentials.resolve(ObjectStore.ACCESS_KEY_FILE), s3.accessKey());
    Files.writeString(credentials.resolve(ObjectStore.SECRET_KEY_FILE), s3.secretKey());
    return new ObjectStoreSettings(
        s3.endpoint().toString(),
        null,
        s3.bucket(),
        "tests/" + prefix,
        true,
        credentials.toString(),
        uploadBytesPerSecond);
  }

  private List<NodeProcess> cluster(
      Path dir, int size, ObjectStoreSettings store, RestoreSource restore, int ack, int from)
      throws Exception {
    Files.createDirectories(dir);
    List<String> flags =
        new ArrayList<>(
            List.of(
                "--default-ack",
                String.valueOf(ack),
                "--default-from",
                String.valueOf(from),
                "--repair-interval-s",
                "0"));
    if (store != null) {
      Path file = dir.resolve("backup-store.json");
      Files.writeString(file, store.toJson());
      flags.addAll(List.of("--backup-store-file", file.toString()));
    }
    if (restore != null) {
      Path file = dir.resolve("restore.json");
      Files.writeString(file, restore.toJson());
      flags.addAll(List.of("--restore-file", file.toString()));
      return NodeProcess.startClusterLive(
          dir, HEAP, Collections.nCopies(size, Map.of()), flags.toArray(String[]::new));
    }
    return NodeProcess.startCluster(
        dir, HEAP, Collections.nCopies(size, Map.of()), flags.toArray(String[]::new));
  }

  private static void put(
      DhtClient client, String key, String value, Map<String, String> expected) {
    assertThat(client.put(key, value, 2, 3).status()).as("PUT %s", key).isEqualTo(201);
    expected.put(key, value);
  }

  private static void start(List<NodeProcess> nodes, String id) {
    for (NodeProcess node : nodes) {
      var started = admin(node, "POST", "/v0/admin/backup?id=" + id);
      assertThat(started.status()).as("%s", started).isEqualTo(202);
    }
  }

  /** Takes backup {@code id} on every node, then completes it. */
  private static BackupSummary backup(List<NodeProcess> nodes, String id) {
    start(nodes, id);
    for (NodeProcess node : nodes) {
      await("backup " + id + " on " + node.port())
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(200))
          .until(() -> !status(node).phase().equals(NodeBackupStatus.RUNNING));
      assertThat(status(node).phase()).as("%s", status(node)).isEqualTo(NodeBackupStatus.COMPLETED);
    }
    var sealed = admin(nodes.getFirst(), "POST", "/v0/admin/backup/seal?id=" + id);
    assertThat(sealed.status()).as("%s", sealed).isEqualTo(200);
    return BackupSummary.parse(sealed.text());
  }

  /** Verifies backup {@code id} on {@code node}: the outcome. */
  private static VerifyStatus verify(NodeProcess node, String id) {
    var started = admin(node, "POST", "/v0/admin/backup/verify?id=" + id);
    assertThat(started.status()).as("%s", started).isEqualTo(202);
    await("verification of " + id + " on " + node.port())
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(200))
        .until(() -> verification(node).finished());
    return verification(node);
  }

  private static VerifyStatus verification(NodeProcess node) {
    var reply = admin(node, "GET", "/v0/admin/backup/verify");
    assertThat(reply.status()).as("%s", reply).isEqualTo(200);
    return VerifyStatus.parse(reply.text());
  }

  private static NodeBackupStatus status(NodeProcess node) {
    var reply = admin(node, "GET", "/v0/admin/backup");
    assertThat(reply.status()).as("%s", reply).isEqualTo(200);
    return NodeBackupStatus.parse(reply.text());
  }

  private static DhtClient.Reply admin(NodeProcess node, String method, String path) {
    return node.client().send(method, path, BodyPublishers.noBody());
  }

  private static void awaitReady(NodeProcess node) {
    await("node " + node.port() + " restored")
        .atMost(Duration.ofSeconds(90))
        .pollInterval(Duration.ofMillis(250))
        .ignoreExceptions()
        .until(() ->
            node.client().send("GET", "/health/ready", BodyPublishers.noBody()).status() == 200);
  }
}
