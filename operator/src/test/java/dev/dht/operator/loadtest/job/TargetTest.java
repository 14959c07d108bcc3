package dev.dht.operator.loadtest.job;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.operator.cluster.Transport;
import dev.dht.operator.loadtest.DhtLoadTestSpec;
import dev.dht.operator.loadtest.LoadTests;
import dev.dht.operator.policy.ChartPolicy;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TargetTest {

  @Test
  void aReadyClusterIsReachedThroughItsClientService() {
    var target =
        Target.resolve(
            LoadTests.test("t", "demo"),
            Optional.of(LoadTests.cluster("demo", true)),
            LoadTests.IMAGE,
            LoadTests.POLICY);
    assertThat(target.ready()).isTrue();
    assertThat(target.url()).isEqualTo("http://demo.ns.svc:8080");
    assertThat(target.image()).isEqualTo(LoadTests.IMAGE);
    assertThat(target.reason()).isEqualTo(Target.CLUSTER_READY);
  }

  @Test
  void aTlsClusterIsReachedOverHttpsAndItsCaIsMountedForTheGeneratorsAndItsNodesProfiled() {
    var cluster = LoadTests.cluster("demo", true);
    cluster.getStatus().setTransport(Transport.Tls);
    cluster.getStatus().setMembers(java.util.List.of("http://demo-0.demo-peers.ns.svc:8080"));
    var test = LoadTests.test("t", "demo");
    var target = Target.resolve(test, Optional.of(cluster), LoadTests.IMAGE, LoadTests.POLICY);
    assertThat(target.url()).isEqualTo("https://demo.ns.svc:8080");
    assertThat(target.caSecretName()).isEqualTo("demo-ca-cert");
    var profile = new DhtLoadTestSpec.Profile();
    profile.setEvents(java.util.List.of(DhtLoadTestSpec.ProfileEvent.CPU));
    test.getSpec().setProfile(profile);
    var model = LoadTestModel.of(test, target);
    assertThat(model.profiling().nodes()).isEqualTo(target.nodes()).isNotEmpty();
    assertThat(model.profiling().events()).isEqualTo("cpu");
    assertThat(model.args())
        .containsSubsequence(
            "--url", "https://demo.ns.svc:8080", "--ca-file", "/etc/dht-ca/ca.crt");
    assertThat(model.args()).noneMatch(a -> a.startsWith("--profile"));
    var pod = JobDependent.container(model);
    assertThat(pod.getVolumeMounts()).anyMatch(m -> m.getMountPath().equals("/etc/dht-ca"));
    assertThat(pod.getVolumeMounts())
        .as("the operator asks for the profiles: the generators get no cluster secret")
        .noneMatch(m -> m.getMountPath().equals("/etc/dht-secret"));
  }

  @Test
  void theClusterImageRunsTheLoadGeneratorWhenTheClusterNamesOne() {
    var cluster = LoadTests.cluster("demo", true);
    cluster.getSpec().setImage("registry/dht-node:1.2");
    var target =
        Target.resolve(
            LoadTests.test("t", "demo"), Optional.of(cluster), LoadTests.IMAGE, LoadTests.POLICY);
    assertThat(target.image()).isEqualTo("registry/dht-node:1.2");
  }

  @Test
  void aMissingClusterKeepsTheTestWaiting() {
    var target =
        Target.resolve(
            LoadTests.test("t", "demo"), Optional.empty(), LoadTests.IMAGE, LoadTests.POLICY);
    assertThat(target.ready()).isFalse();
    assertThat(target.reason()).isEqualTo(Target.CLUSTER_NOT_FOUND);
    assertThat(target.message()).contains("demo").contains("ns");
  }

  @Test
  void aClusterThatIsNotReadyKeepsTheTestWaitingAndSaysWhy() {
    var notReady =
        Target.resolve(
            LoadTests.test("t", "demo"),
            Optional.of(LoadTests.cluster("demo", false)),
            LoadTests.IMAGE,
            LoadTests.POLICY);
    assertThat(notReady.ready()).isFalse();
    assertThat(notReady.reason()).isEqualTo(Target.CLUSTER_NOT_READY);
    assertThat(notReady.message()).contains("1/3 replicas ready");

    var noStatus = LoadTests.cluster("demo", false);
    noStatus.setStatus(null);
    var fresh =
        Target.resolve(
            LoadTests.test("t", "demo"), Optional.of(noStatus), LoadTests.IMAGE, LoadTests.POLICY);
    assertThat(fresh.reason()).isEqualTo(Target.CLUSTER_NOT_READY);
  }

  @Test
  void anAllowedTargetUrlIsLoadedAsThePolicyParsedIt() {
    var test = LoadTests.test("t", "demo");
    test.getSpec().setClusterRef(null);
    test.getSpec().setTargetUrl("http://DHT.example:8080/");
    var target = Target.resolve(test, Optional.empty(), LoadTests.IMAGE, LoadTests.POLICY);
    assertThat(target.ready()).isTrue();
    assertThat(target.url()).isEqualTo("http://dht.example:8080");
    assertThat(target.image()).isEqualTo(LoadTests.IMAGE);
    assertThat(target.reason()).isEqualTo(Target.EXTERNAL);
  }

  @Test
  void aTargetUrlIsRefusedUnlessThePolicyListsIt() {
    var test = LoadTests.test("t", "demo");
    test.getSpec().setClusterRef(null);
    test.getSpec().setTargetUrl("http://dht.example:8080");
    var byDefault = Target.resolve(test, Optional.empty(), LoadTests.IMAGE, ChartPolicy.DEFAULT);
    assertThat(byDefault.ready()).isFalse();
    assertThat(byDefault.reason()).isEqualTo(Target.TARGET_NOT_ALLOWED);
    assertThat(byDefault.message())
        .contains("'http://dht.example:8080'", "policy.loadTestTargets is empty", "clusterRef");

    test.getSpec().setTargetUrl("http://dht.example:8080@evil.example:8080");
    var userInfo = Target.resolve(test, Optional.empty(), LoadTests.IMAGE, LoadTests.POLICY);
    assertThat(userInfo.ready()).isFalse();
    assertThat(userInfo.reason()).isEqualTo(Target.TARGET_NOT_ALLOWED);
    assertThat(userInfo.url()).isNull();
  }

  @Test
  void aClusterImageThePolicyRefusesKeepsTheTestWaitingEvenIfTheClusterLooksReady() {
    var cluster = LoadTests.cluster("demo", true);
    cluster.getSpec().setImage("elsewhere.example/dht-node:1");
    var policy = ChartPolicy.of(List.of(), List.of("registry.example.com/dht/"), List.of());
    var target =
        Target.resolve(LoadTests.test("t", "demo"), Optional.of(cluster), "op/img:1", policy);
    assertThat(target.ready()).isFalse();
    assertThat(target.reason()).isEqualTo(Target.IMAGE_NOT_ALLOWED);
    assertThat(target.message()).contains("DhtCluster demo", "policy.images", "load generators");

    cluster.getSpec().setImage("registry.example.com/dht/node@sha256:" + "a".repeat(64));
    assertThat(
            Target.resolve(LoadTests.test("t", "demo"), Optional.of(cluster), "op/img:1", policy)
                .image())
        .isEqualTo("registry.example.com/dht/node@sha256:" + "a".repeat(64));
    cluster.getSpec().setImage(null);
    assertThat(
            Target.resolve(LoadTests.test("t", "demo"), Optional.of(cluster), "op/img:1", policy)
                .image())
        .as("the operator's image is always allowed")
        .isEqualTo("op/img:1");
  }
}
