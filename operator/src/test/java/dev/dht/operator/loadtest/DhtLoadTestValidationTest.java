package dev.dht.operator.loadtest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dht.operator.CommittedCrdNamespace;
import dev.dht.operator.cluster.CrdFileIsCurrentTest;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The committed DhtLoadTest CRD (crds/) on a real kube-apiserver: defaults, CEL rules, patterns and
 * the immutable spec. No operator runs here: bad specs are refused before anyone sees them.
 */
class DhtLoadTestValidationTest {
  static final String FILE = "dhtloadtests.dht.dev-v1.yml";
  static CommittedCrdNamespace apiserver;
  static KubernetesClient client;
  static String ns;

  @BeforeAll
  static void installCrd() throws Exception {
    apiserver =
        CommittedCrdNamespace.create(CrdFileIsCurrentTest.committed(FILE), "dhtlt-validation-");
    client = apiserver.client();
    ns = apiserver.name();
  }

  @AfterAll
  static void cleanUp() {
    if (apiserver != null) {
      apiserver.close();
    }
  }

  private static GenericKubernetesResource create(String name, String spec) {
    return apiserver.create("DhtLoadTest", name, spec);
  }

  private static DhtLoadTest read(String name) {
    return client.resources(DhtLoadTest.class).inNamespace(ns).withName(name).get();
  }

  @Test
  void theApiserverFillsInTheDefaults() {
    create("defaults", "{clusterRef: {name: demo}, rate: 1000}");
    var spec = read("defaults").getSpec();
    assertThat(spec.getDuration()).isEqualTo("60s");
    assertThat(spec.getWarmup()).isEqualTo("10s");
    assertThat(spec.getConnections()).isEqualTo(64);
    assertThat(spec.getThreads()).as("from the generator's CPU").isNull();
    assertThat(spec.getWorkload().getOperation()).isEqualTo(DhtLoadTestSpec.Operation.PUT);
    assertThat(spec.getWorkload().getKeyDistribution())
        .isEqualTo(DhtLoadTestSpec.KeyDistribution.UNIFORM);
    assertThat(spec.getWorkload().getKeyspace()).isEqualTo(100_000L);
    assertThat(spec.getWorkload().getValueSize()).isEqualTo(100);
    assertThat(spec.getAck()).isNull();
    assertThat(spec.getThresholds()).isNull();
  }

  @Test
  void profilingNeedsAClusterAndKnownEvents() {
    assertRefused(
        () ->
            create(
                "profile-url", "{targetUrl: 'http://a:8080', rate: 1, profile: {events: [cpu]}}"),
        "profile needs a clusterRef");
    assertRefused(
        () -> create("profile-heap", "{clusterRef: {name: a}, rate: 1, profile: {events: [heap]}}"),
        "events");
    assertRefused(
        () ->
            create("bad-prefix", "{clusterRef: {name: a}, rate: 1, workload: {keyPrefix: 'a b'}}"),
        "keyPrefix");
  }

  @Test
  void exactlyOneTargetIsRequired() {
    String message = "exactly one of clusterRef and targetUrl must be set";
    assertRefused(() -> create("no-target", "{rate: 1}"), message);
    assertRefused(
        () -> create("two-targets", "{clusterRef: {name: a}, targetUrl: 'http://a:1', rate: 1}"),
        message);
    create("url", "{targetUrl: 'http://dht.example:8080', rate: 1}");
    assertRefused(() -> create("bad-url", "{targetUrl: 'https://a/x', rate: 1}"), "targetUrl");
  }

  @Test
  void numbersAndEnumsAreChecked() {
    assertRefused(() -> create("no-rate", "{clusterRef: {name: a}}"), "rate");
    assertRefused(() -> create("zero-rate", "{clusterRef: {name: a}, rate: 0}"), "rate");
    assertRefused(
        () -> create("ack-gt-from", "{clusterRef: {name: a}, rate: 1, ack: 3, from: 2}"),
        "ack must not exceed from");
    assertRefused(() -> create("zero-ack", "{clusterRef: {name: a}, rate: 1, ack: 0}"), "spec.ack");
    assertRefused(
        () -> create("threads", "{clusterRef: {name: a}, rate: 1, connections: 2, threads: 4}"),
        "threads must not exceed connections");
    assertRefused(
        () -> create("op", "{clusterRef: {name: a}, rate: 1, workload: {operation: delete}}"),
        "operation");
    assertRefused(
        () -> create("ratio", "{clusterRef: {name: a}, rate: 1, workload: {readRatio: 1.5}}"),
        "readRatio");
    assertRefused(
        () -> create("keys", "{clusterRef: {name: a}, rate: 1, workload: {keyspace: 0}}"),
        "keyspace");
    assertRefused(
        () -> create("err", "{clusterRef: {name: a}, rate: 1, thresholds: {maxErrorRatio: 2}}"),
        "maxErrorRatio");
  }

  @Test
  void durationsAreGoStyleAndPositive() {
    create("compound", "{clusterRef: {name: a}, rate: 1, duration: 1m30s, warmup: 0s}");
    assertThat(read("compound").getSpec().getDuration()).isEqualTo("1m30s");
    assertRefused(
        () -> create("no-unit", "{clusterRef: {name: a}, rate: 1, duration: '60'}"), "duration");
    assertRefused(() -> create("days", "{clusterRef: {name: a}, rate: 1, warmup: 1d}"), "warmup");
    assertRefused(
        () -> create("zero", "{clusterRef: {name: a}, rate: 1, duration: 0s}"),
        "duration must be positive");
  }

  @Test
  void namesMustLeaveRoomForTheJobName() {
    assertRefused(
        () -> create("x".repeat(56), "{clusterRef: {name: a}, rate: 1}"),
        "metadata.name must be at most 55 characters");
    create("x".repeat(55), "{clusterRef: {name: a}, rate: 1}");
  }

  @Test
  void theSpecIsImmutableButTheStatusIsNot() {
    create("frozen", "{clusterRef: {name: a}, rate: 1000}");
    var tests = client.resources(DhtLoadTest.class).inNamespace(ns).withName("frozen");
    assertRefused(
        () ->
            tests.edit(t -> {
              t.getSpec().setRate(2000);
              return t;
            }),
        "spec is immutable: create a new DhtLoadTest to re-run");
    assertThat(read("frozen").getSpec().getRate()).isEqualTo(1000);

    // labels and the status (the operator's) still change
    tests.edit(t -> {
      t.getMetadata().setLabels(Map.of("team", "perf"));
      return t;
    });
    var current = read("frozen");
    var status = new DhtLoadTestStatus();
    status.setPhase("Pending");
    current.setStatus(status);
    client.resource(current).updateStatus();
    assertThat(read("frozen").getStatus().getPhase()).isEqualTo("Pending");
  }

  private static void assertRefused(Runnable request, String message) {
    assertThatThrownBy(request::run)
        .isInstanceOfSatisfying(
            KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(422))
        .hasMessageContaining(message);
  }
}
