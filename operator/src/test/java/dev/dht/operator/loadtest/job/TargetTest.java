package dev.dht.operator.loadtest.job;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.operator.cluster.Transport;
import dev.dht.operator.loadtest.DhtLoadTestSpec;
import dev.dht.operator.loadtest.LoadTests;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TargetTest {

  @Test
  void aReadyClusterIsReachedThroughItsClientService() {
    var target =
        Target.resolve(
            LoadTests.test("t", "demo"),
            Optional.of(LoadTests.cluster("demo", true)),
            LoadTests.IMAGE);
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
    var target = Target.resolve(test, Optional.of(cluster), LoadTests.IMAGE);
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
    var target = Target.resolve(LoadTests.test("t", "demo"), Optional.of(cluster), LoadTests.IMAGE);
    assertThat(target.image()).isEqualTo("registry/dht-node:1.2");
  }

  @Test
  void aMissingClusterKeepsTheTestWaiting() {
    var target = Target.resolve(LoadTests.test("t", "demo"), Optional.empty(), LoadTests.IMAGE);
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
            LoadTests.IMAGE);
    assertThat(notReady.ready()).isFalse();
    assertThat(notReady.reason()).isEqualTo(Target.CLUSTER_NOT_READY);
    assertThat(notReady.message()).contains("1/3 replicas ready");

    var noStatus = LoadTests.cluster("demo", false);
    noStatus.setStatus(null);
    var fresh = Target.resolve(LoadTests.test("t", "demo"), Optional.of(noStatus), LoadTests.IMAGE);
    assertThat(fresh.reason()).isEqualTo(Target.CLUSTER_NOT_READY);
  }

  @Test
  void aTargetUrlIsTakenAsIs() {
    var test = LoadTests.test("t", "demo");
    test.getSpec().setClusterRef(null);
    test.getSpec().setTargetUrl("http://dht.example:8080/");
    var target = Target.resolve(test, Optional.empty(), LoadTests.IMAGE);
    assertThat(target.ready()).isTrue();
    assertThat(target.url()).isEqualTo("http://dht.example:8080");
    assertThat(target.image()).isEqualTo(LoadTests.IMAGE);
    assertThat(target.reason()).isEqualTo(Target.EXTERNAL);
  }
}
