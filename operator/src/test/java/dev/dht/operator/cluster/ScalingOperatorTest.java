package dev.dht.operator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.operator.TestCrds;
import dev.dht.operator.kube.Conditions;
import dev.dht.operator.rbac.ChartRbacOperator;
import dev.dht.operator.scaling.Membership;
import dev.dht.operator.scaling.NodeAdmin;
import dev.dht.operator.users.DhtUser;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.junit.LocallyRunOperatorExtension;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.function.Predicate;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The operator scales a DhtCluster of real nodes 3 → 5 → 4 → 3 on the real apiserver, with a writer
 * and a reader at 2/3 running; a {@link StandInKubelet} runs the pods' nodes.
 */
class ScalingOperatorTest {
  private static final int MAX_NODES = 5;
  private static final int KEYS = 200;
  private static final String NAME = "scale";
  private static final Duration TIMEOUT = Duration.ofSeconds(90);
  private static final int[] PORTS = StandInKubelet.freePorts(MAX_NODES);
  private static final LocalNodes NODES = new LocalNodes(PORTS);

  static {
    TestCrds.forceApply(DhtCluster.class, DhtUser.class);
  }

  @RegisterExtension
  static final LocallyRunOperatorExtension OPERATOR =
      ChartRbacOperator.builder()
          .withReconciler(
              new DhtClusterReconciler(
                  "local/dht-node:it", new NodeAdmin(ScalingOperatorTest::local)))
          .build();

  static KubernetesClient client;
  static String ns;
  static StandInKubelet kubelet;

  @BeforeAll
  static void start() throws IOException {
    client = OPERATOR.getInfrastructureKubernetesClient();
    ns = OPERATOR.getNamespace();
    kubelet = new StandInKubelet(client, ns, NAME, PORTS);
  }

  @AfterAll
  static void stop() throws InterruptedException {
    kubelet.close();
  }

  static String local(String url) {
    return StandInKubelet.local(url, NAME, PORTS);
  }

  @Test
  void scalesUpAndDownUnderLoadWithAChangeDuringAChange() throws Exception {
    var cluster = Clusters.plain(NAME, ns, 3);
    cluster.getMetadata().setGeneration(null);
    var scheduling = new Scheduling();
    scheduling.setNodeSelector(Map.of("dht.dev/test-no-such-node", "true"));
    cluster.getSpec().setScheduling(scheduling);
    client.resource(cluster).create();
    awaitStatus(s -> Conditions.isTrue(s.getConditions(), Conditions.READY));

    var load = new TwoThirdsLoad(NODES, "s", KEYS);

    var clusters = client.resources(DhtCluster.class).inNamespace(ns).withName(NAME);
    kubelet.holdConfig(0); // scale-0 is slow to see the ConfigMap: the change to 5 stays joining
    clusters.scale(5);
    awaitStatus(s ->
        s.getMembership() != null
            && s.getMembership().getTarget() == 5
            && s.getMembership().getStep() == Membership.Step.JOINING);
    clusters.scale(4); // a change during a change: it waits for the first one
    var waiting =
        awaitStatus(s ->
            Conditions.find(s.getConditions(), Conditions.PROGRESSING)
                .map(c -> c.getMessage().contains("the change to 4 replicas waits"))
                .orElse(false));
    assertThat(waiting.getMembership().getTarget()).isEqualTo(5);
    kubelet.releaseConfig(0);
    assertThat(waiting.getNodes())
        .as("each node's progress is in the status")
        .extracting(ObservedNode::getName)
        .containsExactly("scale-0", "scale-1", "scale-2", "scale-3", "scale-4");
    awaitStatus(s ->
        s.getMembership().getStep() == Membership.Step.STABLE
            && s.getMembership().getMembers() == 4);
    assertThat(copies(4)).as("copies on 4 nodes").isEqualTo(3 * KEYS);

    clusters.scale(3);
    var done =
        awaitStatus(s ->
            s.getMembership().getStep() == Membership.Step.STABLE
                && s.getMembership().getMembers() == 3
                && Conditions.isTrue(s.getConditions(), Conditions.READY));
    load.close();

    assertThat(load.writes.get()).isPositive();
    assertThat(load.reads.get()).isPositive();
    assertThat(load.notFound.get()).as("reads of acknowledged keys that found nothing").isZero();
    assertThat(load.older.get()).as("reads older than an acknowledged write").isZero();
    assertThat(copies(3)).as("copies on 3 nodes").isEqualTo(3 * KEYS);
    assertThat(done.getDefaultFrom()).as("the default from stayed").isEqualTo(3);
    assertThat(client.v1().events().inNamespace(ns).list().getItems())
        .anyMatch(e -> "Scaling".equals(e.getReason()));
    Awaitility.await("the claims of the removed members are kept, labelled detached")
        .atMost(TIMEOUT)
        .until(() ->
            client.persistentVolumeClaims().inNamespace(ns).list().getItems().stream()
                .filter(c -> "true".equals(c.getMetadata().getLabels().get("dht.dev/detached")))
                .map(c -> c.getMetadata().getName())
                .sorted()
                .toList()
                .equals(java.util.List.of("data-scale-3", "data-scale-4")));
  }

  /** The live entries of nodes 0..count-1, summed (each node's own replica). */
  private static int copies(int count) throws Exception {
    int copies = 0;
    for (int i = 0; i < count; i++) {
      String body = NODES.text(i, "/v0/entities?start=s");
      copies += (int) body.split("s-", -1).length - 1;
    }
    return copies;
  }

  private static DhtClusterStatus awaitStatus(Predicate<DhtClusterStatus> condition) {
    return LocalNodes.awaitStatus(client, ns, NAME, TIMEOUT, condition);
  }
}
