package dev.dht.operator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.operator.TestCrds;
import dev.dht.operator.kube.Conditions;
import dev.dht.operator.rbac.ChartRbacOperator;
import dev.dht.operator.scaling.NodeAdmin;
import dev.dht.operator.users.DhtUser;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.junit.LocallyRunOperatorExtension;
import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The operator's roller on the real apiserver, with real nodes ({@link StandInKubelet}) and a
 * writer at 2/3: a settings change while one pod is not Ready waits for it, then restarts the pods
 * one at a time, each only once the others are Ready and have handed over their hints; every
 * acknowledged write is on all three replicas afterwards. Restarts are evictions: while the
 * disruption budget allows none, the roll waits. With ack = from, it refuses to restart at all.
 */
class RollingOperatorTest {
  private static final int NODES = 3;
  private static final int KEYS = 100;
  private static final String NAME = "roll";
  private static final Duration TIMEOUT = Duration.ofSeconds(120);
  private static final int[] PORTS = StandInKubelet.freePorts(NODES);
  private static final LocalNodes LOCAL = new LocalNodes(PORTS);

  /** The operator's default node image: changed to play an operator upgrade. */
  private static final AtomicReference<String> OPERATOR_IMAGE =
      new AtomicReference<>("local/dht-node:it");

  static {
    TestCrds.forceApply(DhtCluster.class, DhtUser.class);
  }

  @RegisterExtension
  static final LocallyRunOperatorExtension OPERATOR =
      ChartRbacOperator.builder()
          .withReconciler(
              new DhtClusterReconciler(
                  OPERATOR_IMAGE::get,
                  ImagePull.DEFAULT,
                  new NodeAdmin(url -> StandInKubelet.local(url, NAME, PORTS))))
          .build();

  static KubernetesClient client;
  static String ns;
  static StandInKubelet kubelet;
  static ClusterPods clusterPods;

  @BeforeAll
  static void start() throws IOException {
    client = OPERATOR.getInfrastructureKubernetesClient();
    ns = OPERATOR.getNamespace();
    kubelet = new StandInKubelet(client, ns, NAME, PORTS);
    clusterPods = new ClusterPods(client, ns, NAME, NODES);
  }

  @AfterAll
  static void stop() throws InterruptedException {
    kubelet.close();
  }

  @Test
  void rollsOneReadyAndCaughtUpPodAtATimeAndRefusesWhenAQuorumWouldBreak() throws Exception {
    var cluster = Clusters.plain(NAME, ns, NODES);
    cluster.getMetadata().setGeneration(null);
    var scheduling = new Scheduling();
    // unschedulable: no kubelet runs the pods but the stand-in
    scheduling.setNodeSelector(Map.of("dht.dev/test-no-such-node", "true"));
    cluster.getSpec().setScheduling(scheduling);
    client.resource(cluster).create();
    awaitStatus(s ->
        Conditions.isTrue(s.getConditions(), Conditions.READY)
            && Conditions.isTrue(s.getConditions(), "ConfigApplied"));

    Map<String, Long> acked = new ConcurrentHashMap<>();
    AtomicLong failures = new AtomicLong();
    AtomicBoolean writing = new AtomicBoolean(true);
    Thread writer =
        Thread.ofPlatform()
            .start(() -> {
              for (long v = 1; writing.get(); v++) {
                String key = "r-" + ThreadLocalRandom.current().nextInt(KEYS);
                int node = clusterPods.readyNode((int) v);
                if (node < 0) {
                  continue;
                }
                if (LOCAL.put(node, key, v, 2) == 201) {
                  acked.merge(key, v, Math::max);
                } else {
                  failures.incrementAndGet();
                }
              }
            });
    // the pods, sampled: never more than one may be not Ready
    AtomicInteger mostDown = new AtomicInteger();
    AtomicBoolean sampling = new AtomicBoolean(true);
    Thread sampler =
        Thread.ofPlatform()
            .start(() -> {
              while (sampling.get()) {
                try {
                  // one list: pods not Ready or missing (two lists could count a pod twice)
                  long down =
                      NODES - clusterPods.pods().stream().filter(StandInKubelet::ready).count();
                  mostDown.accumulateAndGet((int) down, Math::max);
                  Thread.sleep(100);
                } catch (Exception e) {
                  return;
                }
              }
            });

    Map<String, String> uids = clusterPods.uids();
    kubelet.holdNotReady(0);
    awaitStatus(s -> !Conditions.isTrue(s.getConditions(), Conditions.READY));
    sampling.set(true);
    mostDown.set(0);
    clusterPods.edit(c -> {
      c.getSpec().getThreads().setStorageWorkers(3);
      return c;
    });
    var waiting =
        awaitStatus(s ->
            s.getRoll() != null
                && s.getRoll().getMessage() != null
                && s.getRoll().getMessage().contains("waiting for roll-0 to be Ready"));
    // roll-0 may be restarted at once: it serves nothing, so that costs no replica
    assertThat(waiting.getRoll().getOutdated()).contains("roll-1", "roll-2");
    Thread.sleep(3000);
    var whileDown = clusterPods.uids();
    assertThat(whileDown.get("roll-1"))
        .as("roll-1 kept while roll-0 is down")
        .isEqualTo(uids.get("roll-1"));
    assertThat(whileDown.get("roll-2"))
        .as("roll-2 kept while roll-0 is down")
        .isEqualTo(uids.get("roll-2"));

    kubelet.release(0);
    var done =
        awaitStatus(s ->
            s.getRoll() == null
                && Conditions.isTrue(s.getConditions(), "ConfigApplied")
                && Conditions.isTrue(s.getConditions(), Conditions.READY));
    writing.set(false);
    writer.join(10_000);
    sampling.set(false);
    sampler.join(5_000);

    assertThat(mostDown.get()).as("pods down at once during the roll").isLessThanOrEqualTo(1);
    var after = clusterPods.uids();
    for (var pod : uids.keySet()) {
      assertThat(after.get(pod)).as("%s was restarted", pod).isNotEqualTo(uids.get(pod));
    }
    assertThat(done.getRevision()).isEqualTo(done.getNodes().getFirst().getRevision());
    assertThat(
            client.v1().events().inNamespace(ns).list().getItems().stream()
                .filter((Event e) -> "RollingRestart".equals(e.getReason()))
                .map(Event::getMessage)
                .toList())
        .as("one RollingRestart event per pod, naming it and what changed")
        .allMatch(m -> m.contains(": created with other settings: "))
        .anyMatch(m -> m.startsWith("restarting pod roll-0"))
        .anyMatch(m -> m.startsWith("restarting pod roll-1"))
        .anyMatch(m -> m.startsWith("restarting pod roll-2"));
    assertThat(acked).isNotEmpty();
    // the last writes may still be hints on their way to a third replica
    Awaitility.await("hints handed over")
        .atMost(TIMEOUT)
        .until(() -> {
          for (int i = 0; i < NODES; i++) {
            if (!LOCAL.handedOverHints(i, kubelet.secret(i))) {
              return false;
            }
          }
          return true;
        });
    for (int i = 0; i < NODES; i++) {
      Map<String, Long> held = LOCAL.localValues(i, "r");
      for (var write : acked.entrySet()) {
        assertThat(held.getOrDefault(write.getKey(), -1L))
            .as("replica %d of %s", i, write.getKey())
            .isGreaterThanOrEqualTo(write.getValue());
      }
    }

    // an operator upgrade with a new default node image: nothing restarts until allowed, once
    OPERATOR_IMAGE.set("local/dht-node:it-next");
    var gated =
        awaitStatus(s ->
            Conditions.find(s.getConditions(), "RestartRequired")
                .map(c -> "OperatorDefaultsChanged".equals(c.getReason()))
                .orElse(false));
    assertThat(Conditions.find(gated.getConditions(), "RestartRequired").orElseThrow().getMessage())
        .contains("local/dht-node:it -> local/dht-node:it-next", "dht.dev/allow-restart=once");
    Thread.sleep(3000);
    assertThat(clusterPods.uids())
        .as("no pod restarted for new operator defaults")
        .isEqualTo(after);
    assertThat(nodeImage()).isEqualTo("local/dht-node:it");
    clusterPods.edit(c -> {
      c.getMetadata().getAnnotations().put("dht.dev/allow-restart", "once");
      return c;
    });
    var upgraded =
        awaitStatus(s ->
            s.getRoll() == null
                && "local/dht-node:it-next".equals(s.getOperatorDefaults().getImage())
                && Conditions.isTrue(s.getConditions(), "ConfigApplied")
                && !Conditions.isTrue(s.getConditions(), "RestartRequired"));
    assertThat(nodeImage()).isEqualTo("local/dht-node:it-next");
    Awaitility.await("the permission is taken away")
        .atMost(TIMEOUT)
        .until(() ->
            !client
                .resources(DhtCluster.class)
                .inNamespace(ns)
                .withName(NAME)
                .get()
                .getMetadata()
                .getAnnotations()
                .containsKey("dht.dev/allow-restart"));
    var upgradedPods = clusterPods.uids();
    for (var pod : after.keySet()) {
      assertThat(upgradedPods.get(pod))
          .as("%s restarted for the upgrade", pod)
          .isNotEqualTo(after.get(pod));
    }
    assertThat(upgraded.getRevision()).isNotEqualTo(done.getRevision());

    restartsWaitForTheDisruptionBudget();

    // ack = from: one node down would fail every default write somewhere, so no restart at all
    clusterPods.edit(c -> {
      var replication = new DhtClusterSpec.Replication();
      replication.setDefaultAck(3);
      c.getSpec().setReplication(replication);
      c.getSpec().getThreads().setStorageWorkers(4);
      return c;
    });
    var refused =
        awaitStatus(s ->
            Conditions.find(s.getConditions(), Conditions.DEGRADED)
                .map(c -> "RestartRefused".equals(c.getReason()))
                .orElse(false));
    assertThat(refused.getRoll().getMessage()).contains("fewer than the default ack 3");
    var whileRefused = clusterPods.uids();
    Thread.sleep(3000);
    assertThat(clusterPods.uids()).as("no restart while refused").isEqualTo(whileRefused);
  }

  /**
   * A restart is an eviction, so the disruption budget arbitrates: with a budget that allows no
   * disruption, the roll says so, deletes nothing and emits no event, and goes on once it allows
   * one. The budget is held at 0 while the roller sees every pod Ready: another workload's pod
   * carries the cluster's labels and is not Ready, so the disruption controller counts 4 expected
   * pods, 3 healthy, 3 needed (the roller knows its pods by name). A concurrent drain would be the
   * usual cause, but its window is a race; a second budget would not do: the Eviction API answers
   * 500 for a pod that two budgets select, never 429.
   */
  private static void restartsWaitForTheDisruptionBudget() throws InterruptedException {
    var labels = new HashMap<>(ClusterModel.selectorLabels(NAME));
    labels.put("dht.dev/test", "intruder");
    client
        .apps()
        .replicaSets()
        .inNamespace(ns)
        .resource(
            new ReplicaSetBuilder()
                .withNewMetadata()
                .withName("intruder")
                .endMetadata()
                .withNewSpec()
                .withReplicas(1)
                .withNewSelector()
                .withMatchLabels(Map.of("dht.dev/test", "intruder"))
                .endSelector()
                .withNewTemplate()
                .withNewMetadata()
                .withLabels(labels)
                .endMetadata()
                .withNewSpec()
                .withNodeSelector(Map.of("dht.dev/test-no-such-node", "true"))
                .addNewContainer()
                .withName("idle")
                .withImage("local/none:1")
                .endContainer()
                .endSpec()
                .endTemplate()
                .endSpec()
                .build())
        .create();
    Awaitility.await("the disruption controller allows no disruption")
        .atMost(TIMEOUT)
        .until(() -> {
          var status =
              client
                  .policy()
                  .v1()
                  .podDisruptionBudget()
                  .inNamespace(ns)
                  .withName(NAME)
                  .get()
                  .getStatus();
          return status != null
              && status.getExpectedPods() == NODES + 1
              && status.getDisruptionsAllowed() == 0;
        });
    var before = clusterPods.uids();
    long events = rollingRestartEvents();
    clusterPods.edit(c -> {
      c.getSpec().getThreads().setStorageWorkers(5);
      return c;
    });
    var refused =
        awaitStatus(s ->
            s.getRoll() != null
                && s.getRoll().getMessage() != null
                && s.getRoll()
                    .getMessage()
                    .startsWith("the disruption budget allows no eviction now: "));
    assertThat(refused.getRoll().getMessage()).contains("3 of 4 pods healthy, 3 needed");
    Thread.sleep(3000);
    assertThat(clusterPods.uids())
        .as("no pod deleted while the budget allows none")
        .isEqualTo(before);
    assertThat(rollingRestartEvents()).as("no RollingRestart event").isEqualTo(events);

    // a second budget over the same pods: every eviction fails (500), and the roll says so
    var second =
        client
            .policy()
            .v1()
            .podDisruptionBudget()
            .inNamespace(ns)
            .resource(
                new PodDisruptionBudgetBuilder()
                    .withNewMetadata()
                    .withName("second")
                    .endMetadata()
                    .withNewSpec()
                    .withMaxUnavailable(new IntOrString(1))
                    .withNewSelector()
                    .withMatchLabels(ClusterModel.selectorLabels(NAME))
                    .endSelector()
                    .endSpec()
                    .build());
    second.create();
    var failed =
        awaitStatus(s ->
            s.getRoll() != null
                && s.getRoll().getMessage() != null
                && s.getRoll().getMessage().startsWith("evicting roll-2 failed: "));
    assertThat(failed.getRoll().getMessage()).contains("more than one PodDisruptionBudget");
    second.delete();
    assertThat(clusterPods.uids()).as("no pod deleted while evictions fail").isEqualTo(before);

    client.apps().replicaSets().inNamespace(ns).withName("intruder").delete();
    awaitStatus(s ->
        s.getRoll() == null
            && Conditions.isTrue(s.getConditions(), "ConfigApplied")
            && Conditions.isTrue(s.getConditions(), Conditions.READY));
    var after = clusterPods.uids();
    for (var pod : before.keySet()) {
      assertThat(after.get(pod)).as("%s restarted", pod).isNotEqualTo(before.get(pod));
    }
    assertThat(rollingRestartEvents()).isGreaterThanOrEqualTo(events + NODES);
  }

  /** RollingRestart events, counting repeats. */
  private static long rollingRestartEvents() {
    return client.v1().events().inNamespace(ns).list().getItems().stream()
        .filter(e -> "RollingRestart".equals(e.getReason()))
        .mapToLong(e -> e.getCount() == null ? 1 : e.getCount())
        .sum();
  }

  private static String nodeImage() {
    return client
        .apps()
        .statefulSets()
        .inNamespace(ns)
        .withName(NAME)
        .get()
        .getSpec()
        .getTemplate()
        .getSpec()
        .getContainers()
        .getFirst()
        .getImage();
  }

  private static DhtClusterStatus awaitStatus(Predicate<DhtClusterStatus> condition) {
    return LocalNodes.awaitStatus(client, ns, NAME, TIMEOUT, condition);
  }
}
