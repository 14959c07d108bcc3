package dev.dht.operator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.operator.TestCrds;
import dev.dht.operator.kube.Conditions;
import dev.dht.operator.rbac.ChartRbacOperator;
import dev.dht.operator.scaling.NodeAdmin;
import dev.dht.operator.users.DhtUser;
import dev.dht.operator.volumes.ClaimState;
import dev.dht.operator.volumes.VolumeExpansion;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimStatusBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.storage.StorageClassBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.junit.LocallyRunOperatorExtension;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A larger spec.storage.size on the real apiserver (its admission checks the StorageClass), with
 * the chart's RBAC and real nodes ({@link StandInKubelet}): every claim is asked the size, no pod
 * restarts, the StatefulSet stays (its claim template cannot change), and the condition follows the
 * volumes. No volume provisioner runs here: the test binds the claims and plays the resizer by
 * writing their status.
 */
class VolumeExpansionOperatorTest {
  private static final int NODES = 3;
  private static final String NAME = "grow";
  private static final String CLASS = "dht-test-expandable";
  private static final Duration TIMEOUT = Duration.ofSeconds(120);
  private static final int[] PORTS = StandInKubelet.freePorts(NODES);

  static {
    TestCrds.forceApply(DhtCluster.class, DhtUser.class);
  }

  @RegisterExtension
  static final LocallyRunOperatorExtension OPERATOR =
      ChartRbacOperator.builder()
          .withReconciler(
              new DhtClusterReconciler(
                  "local/dht-node:it",
                  new NodeAdmin(url -> StandInKubelet.local(url, NAME, PORTS))))
          .build();

  static KubernetesClient client;
  static String ns;
  static StandInKubelet kubelet;
  static ClusterPods cluster;

  @BeforeAll
  static void start() throws IOException {
    client = OPERATOR.getInfrastructureKubernetesClient();
    ns = OPERATOR.getNamespace();
    kubelet = new StandInKubelet(client, ns, NAME, PORTS);
    cluster = new ClusterPods(client, ns, NAME, NODES);
    client
        .resource(
            new StorageClassBuilder()
                .withNewMetadata()
                .withName(CLASS)
                .endMetadata()
                .withProvisioner("dht.dev/test-no-provisioner")
                .withAllowVolumeExpansion(true)
                .build())
        .serverSideApply();
  }

  @AfterAll
  static void stop() throws InterruptedException {
    kubelet.close();
  }

  @Test
  void growsEveryClaimWithoutARestart() {
    var created = Clusters.plain(NAME, ns, NODES);
    created.getMetadata().setGeneration(null);
    created.getSpec().getStorage().setStorageClassName(CLASS);
    var scheduling = new Scheduling();
    scheduling.setNodeSelector(Map.of("dht.dev/test-no-such-node", "true"));
    created.getSpec().setScheduling(scheduling);
    client.resource(created).create();
    awaitStatus(s -> Conditions.isTrue(s.getConditions(), Conditions.READY));
    Awaitility.await("the StatefulSet's claims")
        .atMost(TIMEOUT)
        .until(() -> claims().size() == NODES);
    claims().forEach(c -> bind(c, "1Gi"));
    awaitStatus(s ->
        Conditions.find(s.getConditions(), VolumeExpansion.CONDITION)
            .map(c -> "AtSize".equals(c.getReason()))
            .orElse(false));
    var pods = cluster.uids();
    String statefulSet = statefulSetUid();

    cluster.edit(c -> {
      c.getSpec().getStorage().setSize("2Gi");
      return c;
    });
    var resizing =
        awaitStatus(s ->
            s.getStorage() != null
                && "2Gi".equals(s.getStorage().getSize())
                && s.getStorage().getClaims().stream()
                    .allMatch(c -> c.getPhase() == ClaimState.Phase.Resizing));
    assertThat(claims())
        .allSatisfy(c ->
            assertThat(c.getSpec().getResources().getRequests().get("storage"))
                .isEqualTo(new Quantity("2Gi")));
    assertThat(resizing.getStorage().getTemplateSize()).isEqualTo("1Gi");
    assertThat(Conditions.find(resizing.getConditions(), VolumeExpansion.CONDITION))
        .hasValueSatisfying(c -> assertThat(c.getReason()).isEqualTo("Resizing"));

    claims().forEach(c -> bind(c, "2Gi")); // the resizer's part
    var done = awaitStatus(s -> Conditions.isTrue(s.getConditions(), VolumeExpansion.CONDITION));
    assertThat(done.getStorage().getClaims())
        .extracting(ClaimState::getCapacity)
        .containsOnly("2Gi");
    assertThat(cluster.uids()).as("no pod restarted").isEqualTo(pods);
    assertThat(statefulSetUid()).as("the same StatefulSet").isEqualTo(statefulSet);
  }

  private static List<PersistentVolumeClaim> claims() {
    return client.persistentVolumeClaims().inNamespace(ns).list().getItems().stream()
        .filter(c -> c.getMetadata().getName().matches("data-" + NAME + "-\\d+"))
        .toList();
  }

  /** Bound, with a volume of {@code capacity}: what a provisioner and a resizer would write. */
  private static void bind(PersistentVolumeClaim claim, String capacity) {
    Awaitility.await()
        .atMost(Duration.ofSeconds(10))
        .ignoreExceptions()
        .until(() -> {
          var current =
              client
                  .persistentVolumeClaims()
                  .inNamespace(ns)
                  .withName(claim.getMetadata().getName())
                  .get();
          current.setStatus(
              new PersistentVolumeClaimStatusBuilder()
                  .withPhase("Bound")
                  .withAccessModes("ReadWriteOnce")
                  .withCapacity(Map.of("storage", new Quantity(capacity)))
                  .build());
          client.resource(current).updateStatus();
          return true;
        });
  }

  private static String statefulSetUid() {
    var sts = client.apps().statefulSets().inNamespace(ns).withName(NAME).get();
    return sts == null ? null : sts.getMetadata().getUid();
  }

  private static DhtClusterStatus awaitStatus(Predicate<DhtClusterStatus> condition) {
    return LocalNodes.awaitStatus(client, ns, NAME, TIMEOUT, condition);
  }
}
