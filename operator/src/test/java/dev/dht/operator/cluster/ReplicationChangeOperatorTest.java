package dev.dht.operator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.operator.TestCrds;
import dev.dht.operator.kube.Conditions;
import dev.dht.operator.rbac.ChartRbacOperator;
import dev.dht.operator.scaling.Membership;
import dev.dht.operator.scaling.NodeAdmin;
import dev.dht.operator.users.DhtUser;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.javaoperatorsdk.operator.junit.LocallyRunOperatorExtension;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The operator changes the default from of a DhtCluster of real nodes on the real apiserver (a
 * {@link StandInKubelet} runs the pods' nodes): the change is published as the steps of a change of
 * membership, each observed by the nodes before the next.
 */
class ReplicationChangeOperatorTest {
  private static final int NODES = 3;
  private static final String NAME = "repl";
  private static final Duration TIMEOUT = Duration.ofSeconds(90);
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

  @Test
  void aWiderDefaultFromIsAnnouncedFilledThenReadFromThenFinal() {
    var cluster = Clusters.plain(NAME, ns, NODES);
    cluster.getMetadata().setGeneration(null);
    cluster.getSpec().getReplication().setDefaultFrom(2);
    var scheduling = new Scheduling();
    scheduling.setNodeSelector(Map.of("dht.dev/test-no-such-node", "true"));
    cluster.getSpec().setScheduling(scheduling);
    client.resource(cluster).create();
    awaitStatus(s ->
        Conditions.isTrue(s.getConditions(), Conditions.READY)
            && Conditions.isTrue(s.getConditions(), "ConfigApplied"));
    assertThat(membersFile()).startsWith("epoch 1\nreplication 2/2\n");

    List<String> published = Collections.synchronizedList(new ArrayList<>());
    try (var watch =
        client
            .configMaps()
            .inNamespace(ns)
            .withName(NAME + "-config")
            .watch(
                new Watcher<ConfigMap>() {
                  @Override
                  public void eventReceived(Action action, ConfigMap config) {
                    String members = config.getData().get("members");
                    if (published.isEmpty() || !published.getLast().equals(members)) {
                      published.add(members);
                    }
                  }

                  @Override
                  public void onClose(WatcherException cause) {}
                })) {
      client
          .resources(DhtCluster.class)
          .inNamespace(ns)
          .withName(NAME)
          .edit(c -> {
            c.getSpec().getReplication().setDefaultFrom(3);
            return c;
          });
      var done =
          awaitStatus(s ->
              s.getMembership().getStep() == Membership.Step.STABLE
                  && s.getMembership().getFrom() == 3);
      assertThat(done.getMembership().getAck()).isEqualTo(2);
      assertThat(done.getMembership().getTargetFrom()).isEqualTo(3);
    }
    awaitStatus(s ->
        Integer.valueOf(3).equals(s.getDefaultFrom())
            && dev.dht.operator.kube.Conditions.isTrue(
                s.getConditions(), ClusterStatusCalculator.CONFIG_APPLIED));

    assertThat(published)
        .as("the members files published, in order")
        .extracting(file -> file.substring(0, file.indexOf("http")))
        .containsSubsequence(
            "epoch 2\nreplication 2/2\nnext-replication 2/3\n",
            "epoch 3\nreplication 2/2\nnext-replication 2/3\nread-from next\n",
            "epoch 4\nreplication 2/3\n");
    assertThat(membersFile()).startsWith("epoch 4\nreplication 2/3\nhttp");
    assertThat(
            client
                .resources(PodDisruptionBudget.class)
                .inNamespace(ns)
                .withName(NAME)
                .get()
                .getSpec()
                .getMaxUnavailable()
                .getIntVal())
        .as("one node down leaves 2 of 3 replicas")
        .isEqualTo(1);
    assertThat(client.v1().events().inNamespace(ns).list().getItems())
        .anyMatch(e ->
            "ChangingReplication".equals(e.getReason())
                && e.getMessage().startsWith("changing the default ack/from 2/2 -> 2/3: "));
  }

  private static String membersFile() {
    return client
        .configMaps()
        .inNamespace(ns)
        .withName(NAME + "-config")
        .get()
        .getData()
        .get("members");
  }

  private static DhtClusterStatus awaitStatus(Predicate<DhtClusterStatus> condition) {
    return LocalNodes.awaitStatus(client, ns, NAME, TIMEOUT, condition);
  }
}
