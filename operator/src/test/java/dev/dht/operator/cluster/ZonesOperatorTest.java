package dev.dht.operator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.contract.AdminStatus;
import dev.dht.operator.TestCrds;
import dev.dht.operator.kube.Conditions;
import dev.dht.operator.rbac.ChartRbacOperator;
import dev.dht.operator.scaling.Membership;
import dev.dht.operator.scaling.NodeAdmin;
import dev.dht.operator.scaling.ZonesStatus;
import dev.dht.operator.users.DhtUser;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.junit.LocallyRunOperatorExtension;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Zone-aware placement through the operator on the real apiserver: Kubernetes Node objects labelled
 * with zones, the pods bound to them (a {@link StandInKubelet} plays the scheduler and runs real
 * nodes), the operator reading the labels and giving each member its zone in the members file; with
 * a writer and a reader at 2/3 running while the zones are first published, while the cluster grows
 * into a zone, and while a node's label changes.
 */
class ZonesOperatorTest {
  private static final int MAX_NODES = 4;
  private static final int KEYS = 200;
  private static final String NAME = "zoned";
  private static final String ZONE_KEY = "topology.kubernetes.io/zone";
  private static final Duration TIMEOUT = Duration.ofSeconds(120);
  private static final int[] PORTS = StandInKubelet.freePorts(MAX_NODES);
  private static final LocalNodes NODES = new LocalNodes(PORTS);

  /** Kubernetes nodes of this run: pod i runs on the i-th, labelled with the i-th zone. */
  private static final String RUN = UUID.randomUUID().toString().substring(0, 8);

  private static final List<String> HOSTS =
      List.of("zt-" + RUN + "-a1", "zt-" + RUN + "-b1", "zt-" + RUN + "-c1", "zt-" + RUN + "-a2");
  private static final List<String> ZONES = List.of("zone-a", "zone-b", "zone-c", "zone-a");

  static {
    TestCrds.forceApply(DhtCluster.class, DhtUser.class);
  }

  @RegisterExtension
  static final LocallyRunOperatorExtension OPERATOR =
      ChartRbacOperator.builder()
          .withReconciler(
              new DhtClusterReconciler(
                  "local/dht-node:it", new NodeAdmin(ZonesOperatorTest::local)))
          .build();

  static KubernetesClient client;
  static String ns;
  static StandInKubelet kubelet;

  @BeforeAll
  static void start() throws IOException {
    client = OPERATOR.getInfrastructureKubernetesClient();
    ns = OPERATOR.getNamespace();
    for (String host : HOSTS) {
      client
          .nodes()
          .resource(new NodeBuilder().withNewMetadata().withName(host).endMetadata().build())
          .create();
    }
    kubelet = new StandInKubelet(client, ns, NAME, PORTS);
    kubelet.placeOn(HOSTS::get);
  }

  @AfterAll
  static void stop() throws InterruptedException {
    kubelet.close();
    HOSTS.forEach(host -> client.nodes().withName(host).delete());
  }

  static String local(String url) {
    return StandInKubelet.local(url, NAME, PORTS);
  }

  @Test
  void membersTakeTheZonesOfTheirNodesThroughAFirstLabelAGrowthAndARelabel() throws Exception {
    var cluster = Clusters.plain(NAME, ns, 3);
    cluster.getMetadata().setGeneration(null);
    var scheduling = new Scheduling();
    scheduling.setNodeSelector(Map.of("dht.dev/test-no-such-node", "true"));
    cluster.getSpec().setScheduling(scheduling);
    client.resource(cluster).create();
    var unlabelled =
        awaitStatus(s ->
            Conditions.isTrue(s.getConditions(), Conditions.READY)
                && s.getZones() != null
                && s.getZones().getMessage().startsWith("placement has no zones"));
    assertThat(unlabelled.getZones().getMessage())
        .isEqualTo("placement has no zones: no member's node has the label " + ZONE_KEY);

    var load = new TwoThirdsLoad(NODES, "z", KEYS);

    for (int i = 0; i < 3; i++) {
      label(i, ZONES.get(i));
    }
    var spanned =
        awaitStatus(
            s -> s.getMembership().getStep() == Membership.Step.STABLE && s.getZones().isSpanned());
    assertThat(spanned.getMembership().getZones()).containsExactly("zone-a", "zone-b", "zone-c");
    assertThat(spanned.getZones().getMessage())
        .isEqualTo("every key's 3 replicas are in 3 distinct zones");
    assertThat(zonesSeenBy(0)).containsExactly("zone-a", "zone-b", "zone-c");

    label(3, ZONES.get(3));
    var clusters = client.resources(DhtCluster.class).inNamespace(ns).withName(NAME);
    clusters.scale(4);
    var grown =
        awaitStatus(s ->
            s.getMembership().getStep() == Membership.Step.STABLE
                && s.getMembership().getMembers() == 4
                && s.getZones().isSpanned());
    assertThat(grown.getMembership().getZones())
        .as("the joiner takes the zone of its node")
        .containsExactly("zone-a", "zone-b", "zone-c", "zone-a");
    assertThat(grown.getZones().getZones())
        .containsExactly(
            new ZonesStatus.Zone("zone-a", 2),
            new ZonesStatus.Zone("zone-b", 1),
            new ZonesStatus.Zone("zone-c", 1));

    long epoch = grown.getMembership().getEpoch();
    label(2, "zone-d");
    var moved =
        awaitStatus(s ->
            s.getMembership().getStep() == Membership.Step.STABLE
                && s.getMembership().getEpoch() > epoch
                && s.getZones().isSpanned());
    assertThat(moved.getMembership().getZones())
        .as("a relabelled node moves its member's zone in a change of its own")
        .containsExactly("zone-a", "zone-b", "zone-d", "zone-a");
    assertThat(moved.getMembership().getEpoch()).isEqualTo(epoch + 3);
    assertThat(zonesSeenBy(3)).containsExactly("zone-a", "zone-b", "zone-d", "zone-a");

    load.close();
    assertThat(load.writes.get()).isPositive();
    assertThat(load.reads.get()).isPositive();
    assertThat(load.notFound.get()).as("reads of acknowledged keys that found nothing").isZero();
    assertThat(load.older.get()).as("reads older than an acknowledged write").isZero();
  }

  /** Labels the Kubernetes node of pod i with {@code zone}. */
  private static void label(int i, String zone) {
    client
        .nodes()
        .withName(HOSTS.get(i))
        .edit(n -> {
          n.getMetadata().setLabels(Map.of(ZONE_KEY, zone));
          return n;
        });
  }

  /** The zones of the members node i runs with, from its admin status. */
  private static List<String> zonesSeenBy(int node) throws Exception {
    return AdminStatus.fromJson(NODES.adminStatus(node, kubelet.secret(node))).members().stream()
        .map(AdminStatus.Member::zone)
        .toList();
  }

  private static DhtClusterStatus awaitStatus(Predicate<DhtClusterStatus> condition) {
    return LocalNodes.awaitStatus(client, ns, NAME, TIMEOUT, condition);
  }
}
