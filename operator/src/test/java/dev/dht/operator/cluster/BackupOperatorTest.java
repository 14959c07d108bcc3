package dev.dht.operator.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dht.node.backup.SeaweedS3;
import dev.dht.operator.TestCrds;
import dev.dht.operator.backup.BackupPhases;
import dev.dht.operator.backup.BackupProgress;
import dev.dht.operator.backup.BackupSpec;
import dev.dht.operator.backup.BackupVerification;
import dev.dht.operator.backup.DhtBackup;
import dev.dht.operator.backup.DhtBackupSpec;
import dev.dht.operator.backup.DhtBackupStatus;
import dev.dht.operator.backup.Verifications;
import dev.dht.operator.backup.controller.DhtBackupReconciler;
import dev.dht.operator.kube.Conditions;
import dev.dht.operator.rbac.ChartRbacOperator;
import dev.dht.operator.scaling.NodeAdmin;
import dev.dht.operator.users.DhtUser;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.junit.LocallyRunOperatorExtension;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.function.Predicate;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * DhtBackups against the real apiserver, real nodes ({@link StandInKubelet}) and a real S3 store
 * (SeaweedFS), through the DhtBackup controller: Pending while its cluster does not exist; a backup
 * Completed with what it holds and where; a second one after a few more writes uploads less and
 * reuses the rest, and is verified (spec.verify) as it completes; the first is verified by setting
 * spec.verify later; a deleted DhtBackup's objects are gone from the store and the other's stay; a
 * file of the second damaged in the store fails its verification when asked again; a store killed
 * while a slow backup uploads fails it with the reason. Events and metrics of each.
 */
class BackupOperatorTest {
  private static final String NAME = "bk";
  private static final int[] PORTS = StandInKubelet.freePorts(3);
  private static final Duration TIMEOUT = Duration.ofSeconds(120);
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final PrometheusMeterRegistry REGISTRY =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

  static {
    TestCrds.forceApply(DhtCluster.class, DhtUser.class, DhtBackup.class);
  }

  @RegisterExtension
  static final LocallyRunOperatorExtension OPERATOR =
      ChartRbacOperator.builder()
          .withReconciler(
              new DhtClusterReconciler(
                  "local/dht-node:it",
                  new NodeAdmin(url -> StandInKubelet.local(url, NAME, PORTS))))
          .withReconciler(
              new DhtBackupReconciler(
                  new NodeAdmin(url -> StandInKubelet.local(url, NAME, PORTS)), REGISTRY))
          .build();

  static KubernetesClient client;
  static String ns;
  static SeaweedS3 store;
  static StandInKubelet kubelet;
  static S3Client s3;

  @BeforeAll
  static void start() throws IOException {
    client = OPERATOR.getInfrastructureKubernetesClient();
    ns = OPERATOR.getNamespace();
    store = SeaweedS3.start(Files.createTempDirectory("dht-backup-s3"));
    kubelet = new StandInKubelet(client, ns, NAME, PORTS);
    TestStores.createCredentials(client, ns, store);
    s3 =
        S3Client.builder()
            .endpointOverride(store.endpoint())
            .region(Region.of(store.region()))
            .forcePathStyle(true)
            .credentialsProvider(
                StaticCredentialsProvider.create(
                    AwsBasicCredentials.create(store.accessKey(), store.secretKey())))
            .httpClientBuilder(ApacheHttpClient.builder())
            .build();
  }

  @AfterAll
  static void stop() throws InterruptedException {
    if (client != null) { // their finalizers go, the store being down or not
      client.resources(DhtBackup.class).inNamespace(ns).delete();
      Awaitility.await()
          .atMost(Duration.ofMinutes(3))
          .until(
              () -> client.resources(DhtBackup.class).inNamespace(ns).list().getItems().isEmpty());
    }
    if (kubelet != null) {
      kubelet.close();
    }
    if (s3 != null) {
      s3.close();
    }
    if (store != null) {
      store.close();
    }
  }

  @Test
  void backupsCompleteAreIncrementalAreDeletedFromTheStoreAndFailWithTheStore() throws Exception {
    // no cluster yet: Pending, and says why
    backup("early", "nosuchcluster");
    var waiting = awaitBackup("early", s -> DhtBackupStatus.PENDING.equals(s.getPhase()));
    assertThat(waiting.getReason()).isEqualTo(BackupPhases.CLUSTER_NOT_FOUND);
    client.resources(DhtBackup.class).inNamespace(ns).withName("early").delete();

    var cluster = Clusters.plain(NAME, ns, 3);
    cluster.getMetadata().setGeneration(null);
    cluster
        .getSpec()
        .setBackup(BackupSpec.builder().objectStore(TestStores.spec(store, null)).build());
    client.resource(cluster).create();
    LocalNodes.awaitStatus(
        client, ns, NAME, TIMEOUT, s -> Conditions.isTrue(s.getConditions(), Conditions.READY));
    var nodes = new LocalNodes(PORTS);
    for (int k = 0; k < 300; k++) {
      assertThat(nodes.put(k % 3, "key-" + k, 1000 + k, 3)).isEqualTo(201);
    }

    // a full backup
    backup("first", NAME);
    var first = awaitBackup("first", s -> BackupPhases.isFinal(s));
    assertThat(first.getPhase()).as(first.getMessage()).isEqualTo(DhtBackupStatus.COMPLETED);
    assertThat(first.getBackupId()).isEqualTo("first");
    assertThat(first.getObjectStore().getPath()).isEqualTo(ns + "/" + NAME);
    assertThat(first.getObjectStore().getBucket()).isEqualTo(store.bucket());
    assertThat(first.getFiles()).isPositive();
    assertThat(first.getBytes()).isPositive();
    // replicas may hold the same file and each upload it: uploads can exceed what it lists
    assertThat(first.getBytesUploaded()).isPositive();
    assertThat(first.getCut()).isPositive();
    assertThat(first.getCutTime()).isNotNull();
    assertThat(first.getStartedAt()).isNotNull();
    assertThat(first.getStoppedAt()).isGreaterThanOrEqualTo(first.getStartedAt());
    assertThat(first.getNodes())
        .extracting(DhtBackupStatus.NodePart::getPhase)
        .containsExactly("completed", "completed", "completed");
    assertThat(objects("backups/first/")).contains("backups/first/backup.json");
    assertThat(eventReasons("first")).contains("Started", "Completed");
    assertThat(REGISTRY.scrape())
        .contains("dht_backup_last_size_bytes{cluster=\"" + NAME + "\",namespace=\"" + ns + "\"}");

    // a few more writes: the second uploads less, and reuses the rest; it is verified once
    // completed (spec.verify), which leaves its phase Completed
    for (int k = 0; k < 30; k++) {
      assertThat(nodes.put(k % 3, "key-" + k, 5000 + k, 3)).isEqualTo(201);
    }
    backup("second", NAME, true);
    var second = awaitBackup("second", s -> BackupPhases.isFinal(s));
    assertThat(second.getPhase()).as(second.getMessage()).isEqualTo(DhtBackupStatus.COMPLETED);
    assertThat(second.getBytesUploaded()).isLessThan(first.getBytesUploaded());
    assertThat(second.getFilesReused()).isPositive();
    assertThat(second.getBytesReused()).isPositive();
    var secondChecked = awaitVerification("second", BackupVerification::finished);
    assertThat(secondChecked.getPhase())
        .as(secondChecked.toString())
        .isEqualTo(BackupVerification.PASSED);
    assertThat(secondChecked.getNode()).isZero();
    assertThat(secondChecked.getMembersChecked()).isEqualTo(3);
    assertThat(secondChecked.getMembersTotal()).isEqualTo(3);
    assertThat(secondChecked.getRecords()).isGreaterThanOrEqualTo(3L * 300);
    assertThat(secondChecked.getBytesDownloaded()).isPositive();
    assertThat(secondChecked.getCompletedAt()).isNotNull();
    assertThat(status("second").getPhase()).isEqualTo(DhtBackupStatus.COMPLETED);
    assertThat(eventReasons("second")).contains("VerificationStarted", "Verified");
    assertThat(REGISTRY.scrape())
        .contains(
            "dht_backup_last_verified_time_seconds{cluster=\""
                + NAME
                + "\",namespace=\""
                + ns
                + "\"}");

    // the first, taken without verify, is verified by setting it now; its cluster cannot change
    client
        .resources(DhtBackup.class)
        .inNamespace(ns)
        .withName("first")
        .edit(b -> {
          b.getSpec().setVerify(true);
          return b;
        });
    assertThat(awaitVerification("first", BackupVerification::finished).getPhase())
        .isEqualTo(BackupVerification.PASSED);
    assertThatThrownBy(() ->
            client
                .resources(DhtBackup.class)
                .inNamespace(ns)
                .withName("first")
                .edit(b -> {
                  b.getSpec().setCluster("other");
                  return b;
                }))
        .isInstanceOf(KubernetesClientException.class)
        .hasMessageContaining("a backup's cluster is immutable");

    // deleting the first deletes its objects, not the second's
    client.resources(DhtBackup.class).inNamespace(ns).withName("first").delete();
    Awaitility.await()
        .atMost(TIMEOUT)
        .until(() ->
            client.resources(DhtBackup.class).inNamespace(ns).withName("first").get() == null);
    assertThat(objects("backups/first/")).isEmpty();
    assertThat(objects("backups/second/")).contains("backups/second/backup.json");

    // a file of the second damaged in the store (same size, other bytes): verified again (verify
    // set to false and back to true), the verification fails and says so; the backup stays
    // Completed
    damage(fileOf("second", 0));
    setVerify("second", false);
    setVerify("second", true);
    var secondDamaged =
        awaitVerification(
            "second",
            v -> v.finished() && v.getObservedGeneration() > secondChecked.getObservedGeneration());
    assertThat(secondDamaged.getPhase())
        .as(secondDamaged.toString())
        .isEqualTo(BackupVerification.FAILED);
    assertThat(secondDamaged.getReason()).isEqualTo(Verifications.BACKUP_DAMAGED);
    assertThat(secondDamaged.getMessage()).isNotBlank();
    assertThat(status("second").getPhase()).isEqualTo(DhtBackupStatus.COMPLETED);
    assertThat(eventReasons("second")).contains("VerificationFailed");
    assertThat(REGISTRY.scrape())
        .contains(
            "dht_backup_verification_failed_total{cluster=\""
                + NAME
                + "\",namespace=\""
                + ns
                + "\"} 1.0");

    // a slow backup (16 KiB/s per node) of more data, and the store killed meanwhile
    client
        .resources(DhtCluster.class)
        .inNamespace(ns)
        .withName(NAME)
        .edit(c -> {
          c.getSpec().getBackup().setUploadBytesPerSecond(16L * 1024);
          return c;
        });
    var random = new Random(42);
    for (int k = 0; k < 600; k++) {
      assertThat(putBytes(k % 3, "bulk-" + k, random, 2048)).isEqualTo(201);
    }
    backup("third", NAME);
    awaitBackup("third", s -> DhtBackupStatus.RUNNING.equals(s.getPhase()));
    store.kill();
    var third = awaitBackup("third", s -> BackupPhases.isFinal(s));
    assertThat(third.getPhase()).as(third.toString()).isEqualTo(DhtBackupStatus.FAILED);
    assertThat(third.getReason()).isIn(BackupProgress.NODE_FAILED, BackupPhases.SEAL_REFUSED);
    assertThat(third.getMessage()).isNotBlank();
    assertThat(eventReasons("third")).contains("Started", "Failed");
    assertThat(REGISTRY.scrape())
        .contains("dht_backup_failed_total{cluster=\"" + NAME + "\",namespace=\"" + ns + "\"} 1.0");
  }

  private static void backup(String name, String cluster) {
    backup(name, cluster, null);
  }

  private static void backup(String name, String cluster, Boolean verify) {
    var backup = new DhtBackup();
    backup.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(ns).build());
    backup.setSpec(DhtBackupSpec.builder().cluster(cluster).verify(verify).build());
    client.resource(backup).create();
  }

  private static void setVerify(String name, boolean verify) {
    client
        .resources(DhtBackup.class)
        .inNamespace(ns)
        .withName(name)
        .edit(b -> {
          b.getSpec().setVerify(verify);
          return b;
        });
  }

  private static DhtBackupStatus status(String name) {
    return client.resources(DhtBackup.class).inNamespace(ns).withName(name).get().getStatus();
  }

  private static BackupVerification awaitVerification(
      String name, Predicate<BackupVerification> condition) {
    return awaitBackup(
            name, s -> s.getVerification() != null && condition.test(s.getVerification()))
        .getVerification();
  }

  /** The key (under the cluster's path) of the first file member {@code i}'s manifest lists. */
  private static String fileOf(String backup, int member) throws IOException {
    String manifest = ns + "/" + NAME + "/backups/" + backup + "/nodes/" + member + ".json";
    var json =
        new com.fasterxml.jackson.databind.ObjectMapper()
            .readTree(
                s3.getObjectAsBytes(r -> r.bucket(store.bucket()).key(manifest)).asByteArray());
    String sha256 = json.get("files").get(0).get("sha256").asText();
    return "files/" + sha256.substring(0, 2) + "/" + sha256;
  }

  /**
   * Overwrites the object at {@code key} (under the cluster's path) with other bytes, same size.
   */
  private static void damage(String key) {
    String full = ns + "/" + NAME + "/" + key;
    byte[] bytes = s3.getObjectAsBytes(r -> r.bucket(store.bucket()).key(full)).asByteArray();
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = (byte) ~bytes[i];
    }
    s3.putObject(
        r -> r.bucket(store.bucket()).key(full),
        software.amazon.awssdk.core.sync.RequestBody.fromBytes(bytes));
  }

  private static DhtBackupStatus awaitBackup(String name, Predicate<DhtBackupStatus> condition) {
    return Awaitility.await()
        .atMost(Duration.ofSeconds(180))
        .pollInterval(Duration.ofMillis(200))
        .ignoreExceptions()
        .until(
            () ->
                client.resources(DhtBackup.class).inNamespace(ns).withName(name).get().getStatus(),
            s -> s != null && condition.test(s));
  }

  /** The keys under the cluster's path + {@code prefix} in the store. */
  private static List<String> objects(String prefix) {
    String root = ns + "/" + NAME + "/";
    return s3
        .listObjectsV2Paginator(r -> r.bucket(store.bucket()).prefix(root + prefix))
        .contents()
        .stream()
        .map(o -> o.key().substring(root.length()))
        .toList();
  }

  private static List<String> eventReasons(String backup) {
    return client.v1().events().inNamespace(ns).list().getItems().stream()
        .filter(e -> backup.equals(e.getInvolvedObject().getName()))
        .filter(e -> "DhtBackup".equals(e.getInvolvedObject().getKind()))
        .map(Event::getReason)
        .toList();
  }

  /** PUTs {@code size} random bytes (hex text) as {@code key} through node i, ack 3. */
  private static int putBytes(int node, String key, Random random, int size) throws Exception {
    byte[] raw = new byte[size / 2];
    random.nextBytes(raw);
    return HTTP.send(
            HttpRequest.newBuilder(
                    URI.create(
                        "http://127.0.0.1:"
                            + PORTS[node]
                            + "/v0/entity?id="
                            + key
                            + "&ack=3&from=3"))
                .timeout(Duration.ofSeconds(10))
                .PUT(HttpRequest.BodyPublishers.ofString(java.util.HexFormat.of().formatHex(raw)))
                .build(),
            HttpResponse.BodyHandlers.discarding())
        .statusCode();
  }
}
