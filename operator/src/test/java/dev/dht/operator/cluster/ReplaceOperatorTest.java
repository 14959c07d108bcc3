package dev.dht.operator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.operator.TestCrds;
import dev.dht.operator.kube.Conditions;
import dev.dht.operator.rbac.ChartRbacOperator;
import dev.dht.operator.replacing.NodeReplacement;
import dev.dht.operator.replacing.ReplacementPlan;
import dev.dht.operator.scaling.Membership;
import dev.dht.operator.scaling.NodeAdmin;
import dev.dht.operator.users.DhtUser;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.junit.LocallyRunOperatorExtension;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@value ReplacementPlan#ANNOTATION} on the real apiserver, with real nodes whose volumes are
 * their claims ({@link StandInKubelet}: a new claim is an empty data directory), under a writer at
 * 2/3 and a reader at 2/3 of keys written before: a value that names no member is refused and
 * deletes nothing; the replacement of a member whose pod is not Ready evicts the pod, deletes its
 * claim, waits for the StatefulSet to recreate both, holds a scale back while the new node is not
 * Ready, and ends when it is, with the annotation removed and an event. No read answers wrong, no
 * other pod restarts, the new volume holds every key written before, and the writer's acknowledged
 * keys are on all replicas.
 *
 * <p>Not covered here: the replacement of a Ready pod, whose eviction the disruption budget may
 * refuse (e2e step replace replaces a Ready one); a pod the StatefulSet recreates Pending on the
 * old claim before it is gone (this controller-manager's StatefulSet controller does not create a
 * pod while its claim is being deleted). {@code ReplacementPlanTest} covers both decisions.
 */
class ReplaceOperatorTest {
  private static final int NODES = 3;
  private static final int KEYS = 100;
  private static final String NAME = "replace";
  private static final String VICTIM = NAME + "-1";
  private static final String CLAIM = "data-" + VICTIM;
  private static final Duration TIMEOUT = Duration.ofSeconds(120);
  private static final int[] PORTS = StandInKubelet.freePorts(NODES);
  private static final LocalNodes LOCAL = new LocalNodes(PORTS);

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
  }

  @AfterAll
  static void stop() throws InterruptedException {
    kubelet.close();
  }

  @Test
  void replacesANodeOnANewVolumeUnderAWriterAndAReader() throws Exception {
    var created = Clusters.plain(NAME, ns, NODES);
    created.getMetadata().setGeneration(null);
    var scheduling = new Scheduling();
    // unschedulable: no kubelet runs the pods but the stand-in
    scheduling.setNodeSelector(Map.of("dht.dev/test-no-such-node", "true"));
    created.getSpec().setScheduling(scheduling);
    client.resource(created).create();
    awaitStatus(s ->
        Conditions.isTrue(s.getConditions(), Conditions.READY)
            && Conditions.isTrue(s.getConditions(), "ConfigApplied"));
    for (int k = 1; k <= KEYS; k++) {
      assertThat(LOCAL.put(k % NODES, "p-" + k, k, 3)).as("PUT p-%d at 3/3", k).isEqualTo(201);
    }
    var uids = cluster.uids();
    String oldClaim = claimUid();

    // a value that names no member: refused, says why, deletes nothing, stays
    annotate("replace-7");
    var refused =
        awaitStatus(s ->
            Conditions.find(s.getConditions(), Conditions.DEGRADED)
                .map(c -> "ReplaceRefused".equals(c.getReason()))
                .orElse(false));
    assertThat(refused.getReplacement().getPhase()).isEqualTo(NodeReplacement.Phase.Refused);
    assertThat(refused.getReplacement().getMessage())
        .isEqualTo(
            "dht.dev/replace=replace-7 is refused: replace-7 is not a member: the members are"
                + " replace-0 to replace-2");
    assertThat(events("ReplaceRefused"))
        .singleElement()
        .satisfies(e -> {
          assertThat(e.getType()).isEqualTo("Warning");
          assertThat(e.getMessage()).contains("replace-7 is not a member");
        });
    Thread.sleep(3000);
    assertThat(cluster.uids()).as("no pod deleted").isEqualTo(uids);
    assertThat(claimUid()).as("no claim deleted").isEqualTo(oldClaim);
    assertThat(annotation()).as("the annotation stays").isEqualTo("replace-7");

    Map<String, Long> acked = new ConcurrentHashMap<>();
    AtomicBoolean running = new AtomicBoolean(true);
    Thread writer =
        Thread.ofPlatform()
            .start(() -> {
              for (long v = 1; running.get(); v++) {
                int node = cluster.readyNode((int) v);
                if (node >= 0 && LOCAL.put(node, "w-" + (v % KEYS), v, 2) == 201) {
                  acked.merge("w-" + (v % KEYS), v, Math::max);
                }
              }
            });
    // reads at 2/3 through the nodes that are not replaced: the empty one must never answer
    AtomicLong reads = new AtomicLong();
    List<String> bad = new CopyOnWriteArrayList<>();
    Thread reader =
        Thread.ofPlatform()
            .start(() -> {
              while (running.get()) {
                int k = ThreadLocalRandom.current().nextInt(1, KEYS + 1);
                var answer = LOCAL.get(reads.incrementAndGet() % 2 == 0 ? 0 : 2, "p-" + k, 2);
                if (answer == null || answer.statusCode() != 200 || !answer.body().equals("" + k)) {
                  bad.add("p-" + k + ": " + (answer == null ? "no answer" : answer.statusCode()));
                }
              }
            });
    // never more than the replaced pod down
    AtomicInteger mostDown = new AtomicInteger();
    Thread sampler =
        Thread.ofPlatform()
            .start(() -> {
              while (running.get()) {
                try {
                  long down = NODES - cluster.pods().stream().filter(StandInKubelet::ready).count();
                  mostDown.accumulateAndGet((int) down, Math::max);
                  Thread.sleep(100);
                } catch (Exception e) {
                  return;
                }
              }
            });

    // the node is lost: its pod is not Ready (its process still runs, as a stuck one might), and
    // stays so on the new volume (as if still pulling) until a scale asked meanwhile was seen wait
    kubelet.holdNotReady(1);
    Awaitility.await("replace-1 not Ready")
        .atMost(TIMEOUT)
        .until(() ->
            cluster.pods().stream()
                .noneMatch(
                    p -> p.getMetadata().getName().equals(VICTIM) && StandInKubelet.ready(p)));
    long start = System.nanoTime();
    annotate(VICTIM);
    var started =
        awaitStatus(s -> s.getReplacement() != null && s.getReplacement().running())
            .getReplacement();
    var bootstrapping =
        awaitStatus(s ->
            s.getReplacement() != null
                && s.getReplacement().getPhase() == NodeReplacement.Phase.Bootstrapping);
    assertThat(Conditions.find(bootstrapping.getConditions(), Conditions.PROGRESSING))
        .hasValueSatisfying(c -> {
          assertThat(c.getReason()).isEqualTo("Replacing");
          assertThat(c.getMessage())
              .startsWith("replacing replace-1: replace-1 runs on a new claim");
        });
    assertThat(bootstrapping.getReplacement().getOldClaimUid()).isEqualTo(oldClaim);
    assertThat(claimUid()).as("a new claim").isNotNull().isNotEqualTo(oldClaim);
    assertThat(Conditions.find(bootstrapping.getConditions(), Conditions.DEGRADED))
        .hasValueSatisfying(c -> assertThat(c.getStatus()).isEqualTo("False"));
    cluster.edit(c -> {
      c.getSpec().setReplicas(4);
      return c;
    });
    var held =
        awaitStatus(s ->
            Conditions.find(s.getConditions(), Conditions.PROGRESSING)
                .map(c -> c.getMessage().endsWith("; the change to 4 members waits for it"))
                .orElse(false));
    Thread.sleep(3000);
    assertThat(cluster.cluster().getStatus().getMembership().getStep())
        .as("no change of size starts during a replacement")
        .isEqualTo(Membership.Step.STABLE);
    assertThat(held.getReplacement().getPhase()).isEqualTo(NodeReplacement.Phase.Bootstrapping);
    cluster.edit(c -> {
      c.getSpec().setReplicas(NODES);
      return c;
    });
    kubelet.release(1);

    var done =
        awaitStatus(s ->
            s.getReplacement() == null
                && s.getLastReplacement() != null
                && VICTIM.equals(s.getLastReplacement().getPod()));
    long seconds = Duration.ofNanos(System.nanoTime() - start).toSeconds();
    Awaitility.await("the annotation is removed").atMost(TIMEOUT).until(() -> annotation() == null);
    Thread.sleep(2000);
    running.set(false);
    writer.join(10_000);
    reader.join(10_000);
    sampler.join(5_000);

    assertThat(done.getLastReplacement().getPhase()).isEqualTo(NodeReplacement.Phase.Done);
    assertThat(done.getLastReplacement().getStartedAt())
        .as("started once (not again from a cache that lags behind the status written)")
        .isEqualTo(started.getStartedAt());
    assertThat(done.getLastReplacement().getMessage())
        .startsWith("replaced replace-1 on a new volume in ")
        .endsWith(" s; it pulled its keys from its peers before serving");
    assertThat(events("Replaced"))
        .singleElement()
        .satisfies(
            e -> assertThat(e.getMessage()).isEqualTo(done.getLastReplacement().getMessage()));
    assertThat(events("Replacing"))
        .as("one event per step")
        .extracting(Event::getMessage)
        .anyMatch(m -> m.startsWith("replacing replace-1: evicting replace-1"))
        .anyMatch(m -> m.startsWith("replacing replace-1: replace-1 runs on a new claim"));
    System.out.printf(
        "replaced %s in %d s (%s); %d reads, %d bad; %d keys acknowledged%n",
        VICTIM,
        seconds,
        done.getLastReplacement().getMessage(),
        reads.get(),
        bad.size(),
        acked.size());

    assertThat(bad).as("reads at 2/3 that were not 200 with the value").isEmpty();
    assertThat(reads.get()).isGreaterThan(100);
    assertThat(mostDown.get()).as("pods down at once").isLessThanOrEqualTo(1);
    var after = cluster.uids();
    assertThat(after.get(VICTIM)).isNotEqualTo(uids.get(VICTIM));
    for (String other : List.of(NAME + "-0", NAME + "-2")) {
      assertThat(after.get(other)).as("%s not restarted", other).isEqualTo(uids.get(other));
    }
    assertThat(claimUid()).isNotEqualTo(oldClaim);
    assertThat(LOCAL.localValues(1, "p"))
        .as("the new volume holds every key written before")
        .hasSize(KEYS);
    for (int k = 1; k <= KEYS; k++) {
      var answer = LOCAL.get(1, "p-" + k, 2);
      assertThat(answer.statusCode()).as("p-%d through the new node", k).isEqualTo(200);
      assertThat(answer.body()).isEqualTo("" + k);
    }
    assertThat(acked).isNotEmpty();
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
      Map<String, Long> replica = LOCAL.localValues(i, "w");
      for (var write : acked.entrySet()) {
        assertThat(replica.getOrDefault(write.getKey(), -1L))
            .as("replica %d of %s", i, write.getKey())
            .isGreaterThanOrEqualTo(write.getValue());
      }
    }
  }

  private static void annotate(String pod) {
    cluster.edit(c -> {
      c.getMetadata().getAnnotations().put(ReplacementPlan.ANNOTATION, pod);
      return c;
    });
  }

  private static String annotation() {
    var annotations = cluster.cluster().getMetadata().getAnnotations();
    return annotations == null ? null : annotations.get(ReplacementPlan.ANNOTATION);
  }

  private static String claimUid() {
    var claim = client.persistentVolumeClaims().inNamespace(ns).withName(CLAIM).get();
    return claim == null ? null : claim.getMetadata().getUid();
  }

  private static List<Event> events(String reason) {
    return client.v1().events().inNamespace(ns).list().getItems().stream()
        .filter(e -> reason.equals(e.getReason()))
        .toList();
  }

  private static DhtClusterStatus awaitStatus(Predicate<DhtClusterStatus> condition) {
    return LocalNodes.awaitStatus(client, ns, NAME, TIMEOUT, condition);
  }
}
