package dev.dht.operator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.contract.backup.NodeBackupStatus;
import dev.dht.node.backup.SeaweedS3;
import dev.dht.operator.TestCrds;
import dev.dht.operator.backup.BackupSpec;
import dev.dht.operator.backup.BootstrapSpec;
import dev.dht.operator.backup.DhtBackup;
import dev.dht.operator.kube.Conditions;
import dev.dht.operator.rbac.ChartRbacOperator;
import dev.dht.operator.scaling.NodeAdmin;
import dev.dht.operator.users.DhtUser;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.junit.LocallyRunOperatorExtension;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A cluster created from a backup, on the real apiserver with real nodes ({@link StandInKubelet})
 * and a real S3 store (SeaweedFS): spec.backup reaches the nodes (the store file, the credentials
 * Secret), a backup taken through the nodes' admin API is restored into a cluster of another size,
 * which is Ready only once every node loaded its share, then drops the restore file; a cluster
 * whose DhtBackup does not exist starts no node.
 */
class RestoreOperatorTest {
  private static final String SOURCE = "orig";
  private static final String COPY = "copy";
  private static final int[] SOURCE_PORTS = StandInKubelet.freePorts(3);
  private static final int[] COPY_PORTS = StandInKubelet.freePorts(4);
  private static final Duration TIMEOUT = Duration.ofSeconds(120);
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  static {
    TestCrds.forceApply(DhtCluster.class, DhtUser.class, DhtBackup.class);
  }

  @RegisterExtension
  static final LocallyRunOperatorExtension OPERATOR =
      ChartRbacOperator.builder()
          .withReconciler(
              new DhtClusterReconciler(
                  "local/dht-node:it",
                  new NodeAdmin(url ->
                      StandInKubelet.local(
                          StandInKubelet.local(url, SOURCE, SOURCE_PORTS), COPY, COPY_PORTS))))
          .build();

  static KubernetesClient client;
  static String ns;
  static SeaweedS3 store;
  static StandInKubelet source;
  static StandInKubelet copy;

  @BeforeAll
  static void start() throws IOException {
    client = OPERATOR.getInfrastructureKubernetesClient();
    ns = OPERATOR.getNamespace();
    store = SeaweedS3.start(Files.createTempDirectory("dht-restore-s3"));
    source = new StandInKubelet(client, ns, SOURCE, SOURCE_PORTS);
    copy = new StandInKubelet(client, ns, COPY, COPY_PORTS);
    TestStores.createCredentials(client, ns, store);
  }

  @AfterAll
  static void stop() throws InterruptedException {
    if (copy != null) {
      copy.close();
    }
    if (source != null) {
      source.close();
    }
    if (store != null) {
      store.close();
    }
  }

  @Test
  void aBackupIsRestoredIntoALargerClusterWhichIsReadyOnlyOnceEveryNodeLoadedItsShare()
      throws Exception {
    var original = Clusters.plain(SOURCE, ns, 3);
    original.getMetadata().setGeneration(null);
    original
        .getSpec()
        .setBackup(BackupSpec.builder().objectStore(TestStores.spec(store, null)).build());
    client.resource(original).create();
    LocalNodes.awaitStatus(
        client,
        ns,
        SOURCE,
        TIMEOUT,
        s ->
            Conditions.isTrue(s.getConditions(), Conditions.READY)
                && Conditions.isTrue(s.getConditions(), BackupSpec.CONDITION));
    var nodes = new LocalNodes(SOURCE_PORTS);
    for (int k = 0; k < 200; k++) {
      assertThat(nodes.put(k % 3, "key-" + k, 1000 + k, 3)).isEqualTo(201);
    }
    for (int k = 0; k < 20; k++) {
      assertThat(delete(SOURCE_PORTS[0], "key-" + k)).isEqualTo(202);
    }

    // the backup, through the nodes' admin API (the DhtBackup controller does the same)
    for (int i = 0; i < 3; i++) {
      assertThat(admin(SOURCE_PORTS[i], "POST", "backup?id=first", source.secret(i)).statusCode())
          .isEqualTo(202);
    }
    for (int i = 0; i < 3; i++) {
      int node = i;
      Awaitility.await()
          .atMost(TIMEOUT)
          .until(
              () ->
                  NodeBackupStatus.parse(
                          admin(SOURCE_PORTS[node], "GET", "backup", source.secret(node)).body())
                      .phase(),
              NodeBackupStatus.COMPLETED::equals);
    }
    assertThat(
            admin(SOURCE_PORTS[0], "POST", "backup/seal?id=first", source.secret(0)).statusCode())
        .isEqualTo(200);

    var restored = Clusters.plain(COPY, ns, 4);
    restored.getMetadata().setGeneration(null);
    restored
        .getSpec()
        .setBootstrap(
            BootstrapSpec.builder()
                .backup(
                    BootstrapSpec.Source.builder()
                        .objectStore(TestStores.spec(store, ns + "/" + SOURCE))
                        .backupId("first")
                        .build())
                .build());
    client.resource(restored).create();
    var done =
        LocalNodes.awaitStatus(
            client,
            ns,
            COPY,
            Duration.ofSeconds(180),
            s ->
                s.getRestore() != null
                    && s.getRestore().completed()
                    && Conditions.isTrue(s.getConditions(), Conditions.READY)
                    && Conditions.isTrue(s.getConditions(), ClusterRestore.RESTORED));
    assertThat(done.getRestore().getRestored()).containsExactly(0, 1, 2, 3);
    assertThat(done.getRestore().getKeysKept()).isGreaterThanOrEqualTo(3 * 200);
    Awaitility.await()
        .atMost(TIMEOUT)
        .until(
            () -> client.configMaps().inNamespace(ns).withName(COPY + "-config").get().getData(),
            data -> !data.containsKey(BackupWiring.RESTORE_KEY));

    var copyNodes = new LocalNodes(COPY_PORTS);
    for (int k = 0; k < 200; k++) {
      var answer = copyNodes.get(k % 4, "key-" + k, 3);
      if (k < 20) {
        assertThat(answer.statusCode()).as("deleted key-%d", k).isEqualTo(404);
      } else {
        assertThat(answer.statusCode()).as("key-%d", k).isEqualTo(200);
        assertThat(answer.body()).isEqualTo(Long.toString(1000 + k));
      }
    }
  }

  @Test
  void aClusterFromADhtBackupThatDoesNotExistStartsNoNode() {
    var cluster = Clusters.plain("nobackup", ns, 3);
    cluster.getMetadata().setGeneration(null);
    cluster
        .getSpec()
        .setBootstrap(
            BootstrapSpec.builder()
                .backup(BootstrapSpec.Source.builder().name("no-such-backup").build())
                .build());
    client.resource(cluster).create();
    var status =
        LocalNodes.awaitStatus(
            client,
            ns,
            "nobackup",
            TIMEOUT,
            s -> Conditions.find(s.getConditions(), ClusterRestore.RESTORED).isPresent());
    var restored = Conditions.find(status.getConditions(), ClusterRestore.RESTORED).orElseThrow();
    assertThat(restored.getStatus()).isEqualTo("False");
    assertThat(restored.getReason()).isEqualTo("BackupNotFound");
    assertThat(status.getRestore()).isNull();
    assertThat(client.resources(StatefulSet.class).inNamespace(ns).withName("nobackup").get())
        .as("no node starts empty in a cluster that should restore")
        .isNull();
  }

  private static HttpResponse<String> admin(int port, String method, String what, String secret)
      throws IOException, InterruptedException {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v0/admin/" + what))
            .header("X-Dht-Cluster-Secret", secret)
            .method(method, HttpRequest.BodyPublishers.noBody())
            .timeout(Duration.ofSeconds(60))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static int delete(int port, String key) throws IOException, InterruptedException {
    return HTTP.send(
            HttpRequest.newBuilder(
                    URI.create(
                        "http://127.0.0.1:" + port + "/v0/entity?id=" + key + "&ack=3&from=3"))
                .DELETE()
                .build(),
            HttpResponse.BodyHandlers.discarding())
        .statusCode();
  }
}
