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
  void aTlsClusterIsReachedOverHttpsAndItsCaIsMountedForTheGenerators() {
    var cluster = LoadTests.cluster("demo", true);
    cluster.getStatus().setTransport(Transport.Tls);
    var test = LoadTests.test("t", "demo");
    var target = Target.resolve(test, Optional.of(cluster), LoadTests.IMAGE);
    assertThat(target.url()).isEqualTo("https://demo.ns.svc:8080");
    assertThat(target.caSecretName()).isEqualTo("demo-ca-cert");
    test.getSpec().setProfile(new DhtLoadTestSpec.Profile());
    assertThat(Target.resolve(test, Optional.of(cluster), LoadTests.IMAGE).message())
        .contains("no profiles");
    test.getSpec().setProfile(null);
    var model = LoadTestModel.of(test, target);
    assertThat(model.args())
        .containsSubsequence(
            "--url", "https://demo.ns.svc:8080", "--ca-file", "/etc/dht-ca/ca.crt");
    var pod = JobDependent.container(model);
    assertThat(pod.getVolumeMounts()).anyMatch(m -> m.getMountPath().equals("/etc/dht-ca"));
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
