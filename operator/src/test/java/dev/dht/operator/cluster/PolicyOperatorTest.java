package dev.dht.operator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.operator.TestCrds;
import dev.dht.operator.kube.Conditions;
import dev.dht.operator.networking.AdminCallers;
import dev.dht.operator.policy.ChartPolicy;
import dev.dht.operator.rbac.ChartRbacOperator;
import dev.dht.operator.users.DhtUser;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.junit.LocallyRunOperatorExtension;
import java.time.Duration;
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
 * The chart's policy on spec.image and spec.jvmOptions (chart values policy.images and
 * policy.jvmOptions) against a real kube-apiserver, etcd and kube-controller-manager (k8s-local
 * {@code ensure.sh api}): a cluster whose spec the policy refuses gets no StatefulSet, a running
 * one keeps the StatefulSet it has, both say why in their conditions and a Warning event, and an
 * allowed spec is applied again. No kubelet: pods never run.
 */
class PolicyOperatorTest {
  static final String IMAGE = "local/dht-node:it";
  static final Duration TIMEOUT = Duration.ofSeconds(30);
  static final ChartPolicy POLICY =
      ChartPolicy.of(
          List.of(), List.of("registry.example.com/dht/"), List.of("-Xmx", "-XX:+UseZGC"));

  static {
    TestCrds.forceApply(
        DhtCluster.class, DhtUser.class); // before the extension applies them (see TestCrds)
  }

  @RegisterExtension
  static final LocallyRunOperatorExtension OPERATOR =
      ChartRbacOperator.builder()
          .withReconciler(new DhtClusterReconciler(IMAGE, ImagePull.DEFAULT, POLICY))
          .withConfigurationService(o ->
              o.withDependentResourceFactory(new NetworkPolicyDependentFactory(AdminCallers.NONE)))
          .build();

  static KubernetesClient client;
  static String ns;

  @BeforeAll
  static void connect() {
    client = OPERATOR.getInfrastructureKubernetesClient();
    ns = OPERATOR.getNamespace();
  }

  @Test
  void aClusterWhoseImageThePolicyRefusesGetsNoStatefulSetUntilItsImageIsAllowed() {
    create("lambda", 1, spec -> spec.setImage("elsewhere.example/dht-node:1"));

    var refused = awaitStatus("lambda", s -> reason(s, "Degraded").equals("ImageNotAllowed"));
    assertThat(condition(refused, "Degraded").getMessage())
        .contains("spec.image 'elsewhere.example/dht-node:1'", "policy.images");
    assertThat(condition(refused, "Ready").getStatus()).isEqualTo("False");
    assertThat(condition(refused, "Ready").getReason()).isEqualTo("ImageNotAllowed");
    assertThat(condition(refused, "Progressing").getReason()).isEqualTo("ImageNotAllowed");
    assertThat(refused.getObservedGeneration()).as("nothing was applied").isNull();
    awaitEvent("lambda", "ImageNotAllowed", "Warning");
    assertThat(get(StatefulSet.class, "lambda")).as("no node runs the image").isNull();

    edit("lambda", c -> c.getSpec().setImage("registry.example.com/dht/node:1"));
    var sts = await(StatefulSet.class, "lambda");
    assertThat(sts.getSpec().getTemplate().getSpec().getContainers().getFirst().getImage())
        .isEqualTo("registry.example.com/dht/node:1");
    awaitStatus("lambda", s -> reason(s, "Degraded").equals("AsExpected"));
  }

  @Test
  void aRunningClusterKeepsItsPodTemplateWhileItsJvmOptionsAreRefused() {
    create("mu", 1, spec -> spec.setJvmOptions(List.of("-Xmx256m")));
    var before = await(StatefulSet.class, "mu");
    assertThat(jvmOptions(before)).contains("-Xmx256m");
    awaitStatus("mu", s -> Long.valueOf(1).equals(s.getObservedGeneration()));

    edit("mu", c -> c.getSpec().setJvmOptions(List.of("-Xmx256m", "-javaagent:/tmp/a.jar")));
    var refused = awaitStatus("mu", s -> reason(s, "Degraded").equals("JvmOptionNotAllowed"));
    assertThat(condition(refused, "Degraded").getMessage())
        .contains("spec.jvmOptions[1] '-javaagent:/tmp/a.jar'", "policy.jvmOptions", "-Xmx");
    assertThat(condition(refused, "Ready").getReason()).isEqualTo("JvmOptionNotAllowed");
    assertThat(refused.getObservedGeneration()).isEqualTo(1L);
    awaitEvent("mu", "JvmOptionNotAllowed", "Warning");
    var kept = get(StatefulSet.class, "mu");
    assertThat(kept.getMetadata().getGeneration())
        .as("the StatefulSet was not changed")
        .isEqualTo(before.getMetadata().getGeneration());
    assertThat(jvmOptions(kept)).doesNotContain("javaagent");

    // one entry that the JVM would read as two options is refused as well
    edit("mu", c -> c.getSpec().setJvmOptions(List.of("-Xmx256m -javaagent:/tmp/a.jar")));
    awaitStatus(
        "mu",
        s ->
            reason(s, "Degraded").equals("JvmOptionNotAllowed")
                && condition(s, "Degraded").getMessage().contains("whitespace"));
    assertThat(jvmOptions(get(StatefulSet.class, "mu"))).doesNotContain("javaagent");

    edit("mu", c -> c.getSpec().setJvmOptions(List.of("-Xmx384m", "-XX:+UseZGC")));
    awaitUntil(() -> jvmOptions(get(StatefulSet.class, "mu")).contains("-Xmx384m -XX:+UseZGC"));
    awaitStatus("mu", s -> !reason(s, "Degraded").equals("JvmOptionNotAllowed"));
  }

  // --- helpers ---

  /** The nodes' JVM options as the StatefulSet gives them. */
  private static String jvmOptions(StatefulSet sts) {
    return sts.getSpec().getTemplate().getSpec().getContainers().getFirst().getEnv().stream()
        .filter(e -> e.getName().equals("JDK_JAVA_OPTIONS"))
        .map(EnvVar::getValue)
        .findFirst()
        .orElseThrow();
  }

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

  /** A user's edit, retried on a conflict with the operator's status writes. */
  private static void edit(String name, Consumer<DhtCluster> change) {
    for (int attempt = 1; ; attempt++) {
      try {
        client
            .resources(DhtCluster.class)
            .inNamespace(ns)
            .withName(name)
            .edit(c -> {
              change.accept(c);
              return c;
            });
        return;
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

  private static Condition condition(DhtClusterStatus status, String type) {
    return Conditions.find(status.getConditions(), type).orElseThrow();
  }

  private static String reason(DhtClusterStatus status, String type) {
    return Conditions.find(status.getConditions(), type).map(Condition::getReason).orElse("");
  }

  private static void awaitEvent(String name, String reason, String type) {
    awaitUntil(() ->
        client.v1().events().inNamespace(ns).list().getItems().stream()
            .filter((Event e) -> name.equals(e.getInvolvedObject().getName()))
            .anyMatch(e -> reason.equals(e.getReason()) && type.equals(e.getType())));
  }
}
