package dev.dht.operator.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.dht.operator.TestCrds;
import dev.dht.operator.kube.Conditions;
import dev.dht.operator.networking.AdminCallers;
import dev.dht.operator.networking.NetworkPolicySpec;
import dev.dht.operator.rbac.ChartRbacOperator;
import dev.dht.operator.scaling.Membership;
import dev.dht.operator.users.DhtUser;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeer;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeerBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.junit.LocallyRunOperatorExtension;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The reconciler against a real kube-apiserver, etcd and kube-controller-manager (k8s-local {@code
 * ensure.sh api}). Pods never run (no kubelet, and a node selector that no node matches): tests
 * mark pods ready through the pod status, and the StatefulSet controller turns that into
 * readyReplicas as it would for a kubelet. One namespace and one operator for the class; each test
 * has its own cluster.
 */
class DhtClusterOperatorTest {
  static final String IMAGE = "local/dht-node:it";
  static final Duration TIMEOUT = Duration.ofSeconds(30);
  static final ObjectMapper JSON = new ObjectMapper();
  static final AdminCallers ADMIN_CALLERS =
      new AdminCallers(
          "dht-system", Map.of("app.kubernetes.io/name", "dht-operator"), "monitoring");

  static {
    TestCrds.forceApply(
        DhtCluster.class, DhtUser.class); // before the extension applies them (see TestCrds)
  }

  @RegisterExtension
  static final LocallyRunOperatorExtension OPERATOR =
      ChartRbacOperator.builder()
          .withReconciler(new DhtClusterReconciler(IMAGE, ImagePull.DEFAULT))
          .withConfigurationService(
              o -> o.withDependentResourceFactory(new NetworkPolicyDependentFactory(ADMIN_CALLERS)))
          .build();

  static KubernetesClient client;
  static String ns;

  @BeforeAll
  static void connect() {
    client = OPERATOR.getInfrastructureKubernetesClient();
    ns = OPERATOR.getNamespace();
  }

  @Test
  void createsEveryOwnedObjectWithOwnerReferences() {
    var cluster = create("alpha", 3, spec -> {});

    var sts = await(StatefulSet.class, "alpha");
    var objects =
        List.of(
            sts,
            await(Service.class, "alpha"),
            await(Service.class, "alpha-peers"),
            await(ConfigMap.class, "alpha-config"),
            await(Secret.class, "alpha-secret"),
            await(PodDisruptionBudget.class, "alpha"),
            await(NetworkPolicy.class, "alpha"));
    for (HasMetadata object : objects) {
      assertThat(object.getMetadata().getOwnerReferences())
          .as("owner of %s", object.getFullResourceName())
          .extracting(OwnerReference::getUid, OwnerReference::getKind)
          .containsExactly(tuple(cluster.getMetadata().getUid(), "DhtCluster"));
      assertThat(object.getMetadata().getLabels())
          .containsEntry("app.kubernetes.io/instance", "alpha");
    }

    assertThat(sts.getSpec().getReplicas()).isEqualTo(3);
    assertThat(sts.getSpec().getServiceName()).isEqualTo("alpha-peers");
    assertThat(sts.getSpec().getPodManagementPolicy()).isEqualTo("Parallel");
    assertThat(sts.getSpec().getTemplate().getSpec().getContainers().getFirst().getImage())
        .isEqualTo(IMAGE);
    assertThat(sts.getSpec().getVolumeClaimTemplates().getFirst().getMetadata().getName())
        .isEqualTo("data");
    var peers = get(Service.class, "alpha-peers");
    assertThat(peers.getSpec().getClusterIP()).isEqualTo("None");
    assertThat(peers.getSpec().getPublishNotReadyAddresses()).isTrue();
    assertThat(get(ConfigMap.class, "alpha-config").getData().get("members"))
        .isEqualTo(
            "epoch 1\nreplication 2/3\nhttp://alpha-0.alpha-peers.%1$s.svc:8080\n".formatted(ns)
                + "http://alpha-1.alpha-peers.%1$s.svc:8080\nhttp://alpha-2.alpha-peers.%1$s.svc:8080\n"
                    .formatted(ns));
    assertThat(get(Secret.class, "alpha-secret").getData().get("secret")).isNotBlank();
    assertThat(get(PodDisruptionBudget.class, "alpha").getSpec().getMaxUnavailable().getIntVal())
        .isEqualTo(1);
    assertNetworkPolicy("alpha", List.of(namespaceNamed(ns)));

    var status = awaitStatus("alpha", s -> s.getRevision() != null);
    assertThat(status.getRevision()).isEqualTo(revisionOf(sts));
    assertThat(status.getSelector())
        .isEqualTo("app.kubernetes.io/name=dht,app.kubernetes.io/instance=alpha");
    assertThat(status.getMembership().getMembers()).isEqualTo(3);
    assertThat(status.getMembers()).as("no node runs here, so none is reported").isEmpty();
    assertThat(sts.getSpec().getUpdateStrategy().getType())
        .as("the operator restarts pods itself")
        .isEqualTo("OnDelete");
    assertCondition("alpha", "Ready", "False");
    assertCondition("alpha", "Progressing", "True");
    assertCondition("alpha", "Degraded", "False");
  }

  @Test
  void replicasAndThreadsUpdateTheStatefulSetButOnlyThreadsRestartPods() {
    create("beta", 3, spec -> {});
    var before = await(StatefulSet.class, "beta");
    String secret = await(Secret.class, "beta-secret").getData().get("secret");

    // scale up through the scale subresource, as kubectl scale or an autoscaler would
    client.resources(DhtCluster.class).inNamespace(ns).withName("beta").scale(4);
    awaitUntil(() -> get(StatefulSet.class, "beta").getSpec().getReplicas() == 4);
    // no kubelet here: the new pod never becomes Ready, so the plan waits and says so, and the
    // new node is not announced to the others
    var scaling =
        awaitStatus(
            "beta",
            s ->
                Conditions.find(s.getConditions(), Conditions.PROGRESSING)
                    .map(c ->
                        "Scaling".equals(c.getReason())
                            && c.getMessage()
                                .contains("waiting for the new pod beta-3 to be Ready"))
                    .orElse(false));
    assertThat(scaling.getMembership().getStep()).isEqualTo(Membership.Step.STARTING);
    assertThat(get(ConfigMap.class, "beta-config").getData().get("members"))
        .as("unset defaults keep the values the cluster started with")
        .startsWith("epoch 1\nreplication 2/3\n")
        .doesNotContain("beta-3");
    assertThat(revisionOf(get(StatefulSet.class, "beta"))).isEqualTo(revisionOf(before));

    edit("beta", c -> c.getSpec().getThreads().setEventLoops(4));
    awaitUntil(() -> !revisionOf(get(StatefulSet.class, "beta")).equals(revisionOf(before)));
    var after = get(StatefulSet.class, "beta");
    assertThat(after.getSpec().getTemplate().getSpec().getContainers().getFirst().getArgs())
        .contains("--event-loops=4");
    // OnDelete: the pods are the roller's to restart, and it waits for them to be Ready first
    var status =
        awaitStatus("beta", s -> s.getRoll() != null && s.getRoll().getOutdated().size() == 4);
    assertThat(status.getRevision()).as("what the pods run").isEqualTo(revisionOf(before));
    assertThat(Conditions.find(status.getConditions(), "ConfigApplied").orElseThrow().getStatus())
        .isEqualTo("False");
    assertThat(get(Secret.class, "beta-secret").getData().get("secret"))
        .as("the cluster secret survives reconciles")
        .isEqualTo(secret);
  }

  @Test
  void defaultAckStartsAChangeOfTheDefaultsWithoutTouchingThePods() {
    create("gamma", 3, spec -> {});
    var before = await(StatefulSet.class, "gamma");
    awaitStatus("gamma", s -> s.getObservedGeneration() == 1L);

    var edited = edit("gamma", c -> c.getSpec().getReplication().setDefaultAck(3));
    // no node answers here: the change is announced (writes to both rings) and waits for them
    awaitUntil(() ->
        get(ConfigMap.class, "gamma-config")
            .getData()
            .get("members")
            .startsWith("epoch 2\nreplication 2/3\nnext-replication 3/3\n"));
    awaitUntil(() ->
        get(PodDisruptionBudget.class, "gamma").getSpec().getMaxUnavailable().getIntVal() == 0);
    var status =
        awaitStatus(
            "gamma",
            s ->
                s.getObservedGeneration().equals(edited.getMetadata().getGeneration())
                    && "ChangingReplication".equals(conditionReason(s, "Progressing"))
                    && Conditions.find(s.getConditions(), "Progressing")
                        .orElseThrow()
                        .getMessage()
                        .contains("waiting for")); // the reconcile after the one that announced it
    assertThat(status.getMembership().getStep()).isEqualTo(Membership.Step.JOINING);
    assertThat(status.getMembership().getTargetAck()).isEqualTo(3);
    assertThat(Conditions.find(status.getConditions(), "Progressing").orElseThrow().getMessage())
        .startsWith("changing the default ack/from 2/3 -> 3/3: joining (epoch 2); waiting for");
    assertThat(status.getDefaultAck()).as("no node answers here to say it serves 3").isNull();
    var after = get(StatefulSet.class, "gamma");
    assertThat(after.getSpec().getTemplate()).isEqualTo(before.getSpec().getTemplate());
    assertThat(after.getMetadata().getGeneration()).isEqualTo(before.getMetadata().getGeneration());
  }

  @Test
  void statusFollowsPodReadiness() {
    create("delta", 2, spec -> {});
    await(StatefulSet.class, "delta");
    var pods = awaitPods("delta", 2);
    assertCondition("delta", "Progressing", "True");

    pods.forEach(pod -> setPodReady(pod, true));
    var ready = awaitStatus("delta", s -> conditionIs(s, "Ready", "True"));
    assertThat(ready.getReadyReplicas()).isEqualTo(2);
    assertThat(ready.getReplicas()).isEqualTo(2);
    assertThat(ready.getObservedGeneration()).isEqualTo(1L);
    assertCondition("delta", "Progressing", "False");
    assertCondition("delta", "Degraded", "False");
    awaitEvent("delta", "ClusterReady", "Normal");

    setPodReady(pods.getFirst(), false);
    var degraded = awaitStatus("delta", s -> conditionIs(s, "Degraded", "True"));
    assertThat(degraded.getReadyReplicas()).isEqualTo(1);
    assertCondition("delta", "Ready", "False");
    awaitEvent("delta", "ReplicasNotReady", "Warning");

    // the same degradation again: the same Event, its count raised (not a second Event)
    setPodReady(pods.getFirst(), true);
    awaitStatus("delta", s -> conditionIs(s, "Degraded", "False"));
    setPodReady(pods.getFirst(), false);
    awaitUntil(() -> {
      var events =
          client.v1().events().inNamespace(ns).list().getItems().stream()
              .filter((Event e) -> "delta".equals(e.getInvolvedObject().getName()))
              .filter(e -> "ReplicasNotReady".equals(e.getReason()))
              .toList();
      // (a reconciliation that starts from a status older than its own last write may say it
      // once more: at least twice, in one Event)
      return events.size() == 1 && events.getFirst().getCount() >= 2;
    });
  }

  @Test
  void pauseAnnotationFreezesOwnedObjectsAndIsReported() {
    create("epsilon", 3, spec -> {});
    var before = await(StatefulSet.class, "epsilon");
    String membersBefore = await(ConfigMap.class, "epsilon-config").getData().get("members");

    edit("epsilon", c -> c.getMetadata().getAnnotations().put(DhtCluster.PAUSE_ANNOTATION, "true"));
    awaitStatus("epsilon", s -> conditionReason(s, "Progressing").equals("Paused"));
    awaitEvent("epsilon", "ReconciliationPaused", "Normal");

    var edited =
        edit(
            "epsilon",
            c -> {
              c.getSpec().setReplicas(5);
              c.getSpec().getThreads().setStorageWorkers(3);
            });
    long generation = edited.getMetadata().getGeneration();
    // the status is still written while paused, so this proves a reconcile saw the new spec
    var paused =
        awaitStatus(
            "epsilon",
            s ->
                Conditions.find(s.getConditions(), "Paused")
                    .map(c -> c.getObservedGeneration() == generation)
                    .orElse(false));
    assertThat(conditionReason(paused, "Progressing")).isEqualTo("Paused");
    assertThat(conditionIs(paused, "Paused", "True")).isTrue();
    assertThat(paused.getObservedGeneration())
        .as("a generation that was not applied is not observed")
        .isLessThan(generation);
    assertThat(paused.getRevision()).isEqualTo(revisionOf(before));
    var frozen = get(StatefulSet.class, "epsilon");
    assertThat(frozen.getSpec().getReplicas()).isEqualTo(3);
    assertThat(frozen.getSpec().getTemplate()).isEqualTo(before.getSpec().getTemplate());
    assertThat(get(ConfigMap.class, "epsilon-config").getData().get("members"))
        .isEqualTo(membersBefore);

    edit("epsilon", c -> c.getMetadata().getAnnotations().remove(DhtCluster.PAUSE_ANNOTATION));
    awaitUntil(() -> get(StatefulSet.class, "epsilon").getSpec().getReplicas() == 5);
    // the reconciliations the resumed StatefulSet's events start report its new settings
    awaitStatus(
        "epsilon",
        s ->
            !conditionReason(s, "Progressing").equals("Paused")
                && !revisionOf(before).equals(s.getRevision()));
    awaitEvent("epsilon", "ReconciliationResumed", "Normal");
    awaitStatus("epsilon", s -> s.getObservedGeneration() == generation);
  }

  /**
   * A Secret of the cluster's Secret name that someone made before the cluster (with the labels the
   * operator sets, so that its informer sees it too) is not adopted: nothing would mount it into
   * pods that run the cluster's image. Once it is gone, the cluster makes its own and starts.
   */
  @Test
  void someonesSecretOfTheClustersSecretNameIsNotAdopted() {
    String someones =
        Base64.getEncoder().encodeToString("someone's".getBytes(StandardCharsets.UTF_8));
    client
        .resource(
            new SecretBuilder()
                .withNewMetadata()
                .withName("iota-secret")
                .withNamespace(ns)
                .withLabels(
                    Map.of(
                        "app.kubernetes.io/name", "dht",
                        "app.kubernetes.io/instance", "iota",
                        "app.kubernetes.io/managed-by", "dht-operator"))
                .endMetadata()
                .withData(Map.of("secret", someones))
                .build())
        .create();
    create("iota", 3, spec -> {});

    var refused = awaitStatus("iota", s -> conditionReason(s, "Degraded").equals("SecretNotOwned"));
    assertThat(Conditions.find(refused.getConditions(), "Degraded").orElseThrow().getMessage())
        .contains("iota-secret", "not made by the operator", "not adopted");
    assertThat(refused.getObservedGeneration()).as("nothing was applied").isNull();
    awaitEvent("iota", "SecretNotOwned", "Warning");
    assertThat(get(StatefulSet.class, "iota")).as("nothing mounts it").isNull();
    assertThat(get(ConfigMap.class, "iota-config")).isNull();
    var untouched = get(Secret.class, "iota-secret");
    assertThat(untouched.getData()).containsExactly(Map.entry("secret", someones));
    assertThat(untouched.getMetadata().getOwnerReferences()).isNullOrEmpty();

    client.secrets().inNamespace(ns).withName("iota-secret").delete();
    var cluster = get(DhtCluster.class, "iota");
    await(StatefulSet.class, "iota");
    var own = await(Secret.class, "iota-secret");
    assertThat(own.getData().get("secret")).isNotEqualTo(someones);
    assertThat(own.getMetadata().getOwnerReferences())
        .extracting(OwnerReference::getUid)
        .containsExactly(cluster.getMetadata().getUid());
    awaitStatus("iota", s -> !conditionReason(s, "Degraded").equals("SecretNotOwned"));
  }

  @Test
  void theNetworkPolicyFollowsTheSpecAndGoesWhenDisabled() {
    var web =
        new NetworkPolicyPeerBuilder()
            .withNewNamespaceSelector()
            .withMatchLabels(Map.of("team", "web"))
            .endNamespaceSelector()
            .build();
    create(
        "eta",
        1,
        spec ->
            spec.setNetworkPolicy(NetworkPolicySpec.builder().clientsFrom(List.of(web)).build()));
    await(NetworkPolicy.class, "eta");
    assertNetworkPolicy("eta", List.of(web));

    edit("eta", c -> c.getSpec().getNetworkPolicy().setEnabled(false));
    awaitUntil(() -> get(NetworkPolicy.class, "eta") == null);
    assertThat(get(Service.class, "eta")).as("the other objects stay").isNotNull();

    edit("eta", c -> c.getSpec().setNetworkPolicy(null));
    await(NetworkPolicy.class, "eta");
    assertNetworkPolicy("eta", List.of(namespaceNamed(ns)));
  }

  /** The policy of cluster {@code name}: its pods, clients from {@code clients}, peers, admin. */
  private static void assertNetworkPolicy(String name, List<NetworkPolicyPeer> clients) {
    var spec = get(NetworkPolicy.class, name).getSpec();
    var selector = ClusterModel.selectorLabels(name);
    assertThat(spec.getPodSelector().getMatchLabels()).isEqualTo(selector);
    assertThat(spec.getPolicyTypes()).containsExactly("Ingress");
    var fromByPort = new HashMap<Integer, List<NetworkPolicyPeer>>();
    for (var rule : spec.getIngress()) {
      assertThat(rule.getPorts()).hasSize(1);
      fromByPort.put(rule.getPorts().getFirst().getPort().getIntVal(), rule.getFrom());
    }
    assertThat(fromByPort)
        .containsOnlyKeys(
            NodePorts.SPLIT.client(), NodePorts.SPLIT.peer(), NodePorts.SPLIT.admin());
    assertThat(json(fromByPort.get(NodePorts.SPLIT.client()))).isEqualTo(json(clients));
    assertThat(fromByPort.get(NodePorts.SPLIT.peer()))
        .singleElement()
        .satisfies(peer -> {
          assertThat(peer.getNamespaceSelector()).isNull();
          assertThat(peer.getPodSelector().getMatchLabels()).isEqualTo(selector);
        });
    var operator =
        new NetworkPolicyPeerBuilder()
            .withNamespaceSelector(namespaceNamed("dht-system").getNamespaceSelector())
            .withNewPodSelector()
            .withMatchLabels(ADMIN_CALLERS.operatorPodLabels())
            .endPodSelector()
            .build();
    assertThat(json(fromByPort.get(NodePorts.SPLIT.admin())))
        .isEqualTo(json(List.of(operator, namespaceNamed("monitoring"))));
  }

  /** As JSON, where an empty list and an absent one are alike and map keys have no order. */
  private static JsonNode json(Object value) {
    return JSON.valueToTree(value);
  }

  /** Every pod of namespace {@code name}. */
  private static NetworkPolicyPeer namespaceNamed(String name) {
    return new NetworkPolicyPeerBuilder()
        .withNewNamespaceSelector()
        .withMatchLabels(Map.of("kubernetes.io/metadata.name", name))
        .endNamespaceSelector()
        .build();
  }

  @Test
  void deletingTheClusterGarbageCollectsEveryOwnedObject() {
    var cluster = create("zeta", 1, spec -> {});
    await(StatefulSet.class, "zeta");
    await(PodDisruptionBudget.class, "zeta");
    await(Secret.class, "zeta-secret");
    await(NetworkPolicy.class, "zeta");

    client.resource(cluster).delete();
    // kube-controller-manager's garbage collector follows the owner references
    awaitUntil(() ->
        get(StatefulSet.class, "zeta") == null
            && get(Service.class, "zeta") == null
            && get(Service.class, "zeta-peers") == null
            && get(ConfigMap.class, "zeta-config") == null
            && get(Secret.class, "zeta-secret") == null
            && get(PodDisruptionBudget.class, "zeta") == null
            && get(NetworkPolicy.class, "zeta") == null);
  }

  // --- helpers ---

  private static DhtCluster create(String name, int replicas, Consumer<DhtClusterSpec> spec) {
    var cluster = Clusters.cluster(name, ns, replicas);
    cluster.getMetadata().setGeneration(null);
    cluster.getMetadata().setAnnotations(new HashMap<>());
    // never scheduled, even when a kubelet runs (ensure.sh full): pod status stays the test's
    var scheduling = new Scheduling();
    scheduling.setNodeSelector(Map.of("dht.dev/test-no-such-node", "true"));
    cluster.getSpec().setScheduling(scheduling);
    spec.accept(cluster.getSpec());
    return client.resource(cluster).create();
  }

  /**
   * A user's edit: read, change, write. The operator writes the status concurrently, which moves
   * the resourceVersion; like kubectl edit, a conflicting write (409) is retried on a fresh read.
   */
  private static DhtCluster edit(String name, Consumer<DhtCluster> change) {
    for (int attempt = 1; ; attempt++) {
      try {
        return client
            .resources(DhtCluster.class)
            .inNamespace(ns)
            .withName(name)
            .edit(c -> {
              if (c.getMetadata().getAnnotations() == null) {
                c.getMetadata().setAnnotations(new HashMap<>());
              }
              change.accept(c);
              return c;
            });
      } catch (KubernetesClientException e) {
        if (e.getCode() != 409 || attempt == 5) {
          throw e;
        }
      }
    }
  }

  private static <T extends HasMetadata> T get(Class<T> type, String name) {
    return client.resources(type).inNamespace(ns).withName(name).get();
  }

  private static <T extends HasMetadata> T await(Class<T> type, String name) {
    awaitUntil(() -> get(type, name) != null);
    return get(type, name);
  }

  private static void awaitUntil(Callable<Boolean> condition) {
    Awaitility.await()
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(200))
        .ignoreExceptions()
        .until(condition);
  }

  private static DhtClusterStatus awaitStatus(String name, Predicate<DhtClusterStatus> condition) {
    awaitUntil(() -> {
      var status = get(DhtCluster.class, name).getStatus();
      return status != null && condition.test(status);
    });
    return get(DhtCluster.class, name).getStatus();
  }

  private static String revisionOf(StatefulSet sts) {
    return StatefulSetDependent.revision(sts).id();
  }

  private static boolean conditionIs(DhtClusterStatus status, String type, String value) {
    return Conditions.find(status.getConditions(), type)
        .map(c -> value.equals(c.getStatus()))
        .orElse(false);
  }

  private static String conditionReason(DhtClusterStatus status, String type) {
    return Conditions.find(status.getConditions(), type).map(c -> c.getReason()).orElse("");
  }

  private static void assertCondition(String name, String type, String value) {
    var cluster = get(DhtCluster.class, name);
    var condition = Conditions.find(cluster.getStatus().getConditions(), type).orElseThrow();
    assertThat(condition.getStatus()).as("%s of %s", type, name).isEqualTo(value);
    assertThat(condition.getReason()).isNotBlank();
    assertThat(condition.getMessage()).isNotBlank();
    assertThat(condition.getLastTransitionTime()).isNotBlank();
    assertThat(condition.getObservedGeneration()).isEqualTo(cluster.getMetadata().getGeneration());
  }

  private static List<Pod> awaitPods(String name, int count) {
    awaitUntil(() -> pods(name).size() == count);
    return pods(name);
  }

  private static List<Pod> pods(String name) {
    return client
        .pods()
        .inNamespace(ns)
        .withLabels(Map.of("app.kubernetes.io/instance", name))
        .list()
        .getItems();
  }

  /** What a kubelet would report once the readiness probe passes (or fails). */
  private static void setPodReady(Pod pod, boolean ready) {
    String now = Instant.now().toString();
    String status = ready ? "True" : "False";
    awaitUntil(() -> {
      var current = client.pods().inNamespace(ns).withName(pod.getMetadata().getName()).get();
      current.setStatus(
          new PodStatusBuilder(current.getStatus())
              .withPhase("Running")
              .withConditions(
                  new PodConditionBuilder()
                      .withType("Ready")
                      .withStatus(status)
                      .withLastTransitionTime(now)
                      .build(),
                  new PodConditionBuilder()
                      .withType("ContainersReady")
                      .withStatus(status)
                      .withLastTransitionTime(now)
                      .build())
              .build());
      client.resource(current).updateStatus();
      return true;
    });
  }

  private static void awaitEvent(String name, String reason, String type) {
    awaitUntil(() ->
        client.v1().events().inNamespace(ns).list().getItems().stream()
            .filter((Event e) -> name.equals(e.getInvolvedObject().getName()))
            .anyMatch(e -> reason.equals(e.getReason()) && type.equals(e.getType())));
  }
}
