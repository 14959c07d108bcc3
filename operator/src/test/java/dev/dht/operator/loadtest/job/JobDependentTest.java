package dev.dht.operator.loadtest.job;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.operator.cluster.ClusterModel;
import dev.dht.operator.cluster.ImagePull;
import dev.dht.operator.cluster.Scheduling;
import dev.dht.operator.loadtest.DhtLoadTestSpec;
import dev.dht.operator.loadtest.DhtLoadTestSpec.KeyDistribution;
import dev.dht.operator.loadtest.DhtLoadTestSpec.Operation;
import dev.dht.operator.loadtest.LoadTests;
import io.fabric8.kubernetes.api.model.AffinityBuilder;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** The Job is built from the test alone, so every field is checked here without a cluster. */
class JobDependentTest {

  private static LoadTestModel model(Consumer<DhtLoadTestSpec> change) {
    var test = LoadTests.test("put-10k", "demo");
    change.accept(test.getSpec());
    var target =
        Target.resolve(
            test, Optional.of(LoadTests.cluster("demo", true)), LoadTests.IMAGE, LoadTests.POLICY);
    return LoadTestModel.of(test, target);
  }

  @Test
  void theDefaultsBecomeTheLoadGeneratorsArguments() {
    var job = JobDependent.build(model(spec -> {}));
    var container = job.getSpec().getTemplate().getSpec().getContainers().getFirst();
    assertThat(container.getCommand()).as("the image's entrypoint is kept").isNullOrEmpty();
    assertThat(container.getArgs())
        .containsExactly(
            "loadgen",
            "--url",
            "http://demo.ns.svc:8080",
            "--workload",
            "put",
            "--rate",
            "10000",
            "--duration",
            "60s",
            "--warmup",
            "10s",
            "--self-warm-up",
            "20s",
            "--connections",
            "64",
            "--threads",
            "1", // the default 500m of CPU: one event loop
            "--keyspace",
            "100000",
            "--key-prefix",
            "put-10k-uid-put--",
            "--value-size",
            "100",
            "--distribution",
            "uniform",
            "--control-port",
            "9090",
            "--control-token-file",
            "/etc/dht-control/token",
            "--termination-log",
            "/dev/termination-log");
  }

  @Test
  void everyWorkloadSettingReachesTheArguments() {
    var model =
        model(spec -> {
          spec.getWorkload().setOperation(Operation.MIXED);
          spec.getWorkload().setReadRatio(0.9);
          spec.getWorkload().setKeyspace(5000L);
          spec.getWorkload().setKeyPrefix("bench-");
          spec.getWorkload().setValueSize(0);
          spec.getWorkload().setKeyDistribution(KeyDistribution.ZIPFIAN);
          spec.setAck(2);
          spec.setFrom(3);
          spec.setRate(2500);
          spec.setDuration("1m30s");
          spec.setWarmup("1.5s");
          spec.setConnections(8);
          spec.setThreads(4);
        });
    assertThat(String.join(" ", model.args()))
        .isEqualTo(
            "loadgen --url http://demo.ns.svc:8080 --workload mixed --rate 2500 --duration 90s"
                + " --warmup 1500ms --self-warm-up 20s --connections 8 --threads 4 --keyspace 5000 --key-prefix bench- --value-size 0"
                + " --distribution zipfian --read-ratio 0.9 --ack 2 --from 3"
                + " --control-port 9090 --control-token-file /etc/dht-control/token"
                + " --termination-log /dev/termination-log");
  }

  @Test
  void theArgumentsAreOnesTheGeneratorTakes() {
    var models =
        java.util.List.of(
            model(spec -> {}),
            model(spec -> {
              spec.getWorkload().setOperation(Operation.MIXED);
              spec.getWorkload().setReadRatio(0.9);
              spec.setAck(2);
              spec.setFrom(3);
            }),
            model(spec -> spec.setParallelism(3)));
    for (var model : models) {
      var args = model.args();
      assertThat(args.getFirst()).isEqualTo(dev.dht.contract.LoadGenFlags.COMMAND);
      var generator = new dev.dht.loadgen.cli.LoadGenCommand();
      var parsed =
          new picocli.CommandLine(generator)
              .parseArgs(args.subList(1, args.size()).toArray(String[]::new));
      assertThat(parsed.unmatched()).as(String.join(" ", args)).isEmpty();
    }
  }

  @Test
  void theJobRunsOnceWithinADeadlineAndKeepsItsPod() {
    var job = JobDependent.build(model(spec -> spec.setDuration("20m")));
    assertThat(job.getMetadata().getName()).isEqualTo("put-10k-loadgen");
    assertThat(job.getMetadata().getNamespace()).isEqualTo("ns");
    assertThat(job.getMetadata().getLabels())
        .containsEntry("app.kubernetes.io/instance", "put-10k")
        .containsEntry("app.kubernetes.io/managed-by", "dht-operator");
    var spec = job.getSpec();
    assertThat(spec.getBackoffLimit()).isZero();
    assertThat(spec.getTtlSecondsAfterFinished()).isNull();
    // 20 s self warm-up + 10 s warm-up + 20 m, plus a quarter of it (more than the 3 min minimum)
    assertThat(spec.getActiveDeadlineSeconds()).isEqualTo(1230 + 308);
    assertThat(JobDependent.build(model(s -> {})).getSpec().getActiveDeadlineSeconds())
        .isEqualTo(20 + 70 + 180);
    var pod = spec.getTemplate().getSpec();
    assertThat(pod.getRestartPolicy()).isEqualTo("Never");
    assertThat(spec.getTemplate().getMetadata().getLabels())
        .containsEntry("app.kubernetes.io/instance", "put-10k");
  }

  @Test
  void aParallelTestIsAnIndexedJobOfGeneratorsThatWaitToStartTogether() {
    var job =
        JobDependent.build(
            model(spec -> {
              spec.setParallelism(3);
              spec.setSpreadAcrossNodes(true);
              spec.setDuration("60s");
            }));
    var spec = job.getSpec();
    assertThat(spec.getCompletionMode()).isEqualTo("Indexed");
    assertThat(spec.getCompletions()).isEqualTo(3);
    assertThat(spec.getParallelism()).isEqualTo(3);
    assertThat(spec.getBackoffLimit()).isZero();
    // 20 s self warm-up + 70 s run + 5 min start wait + 2 min linger, plus the 3 min margin
    assertThat(spec.getActiveDeadlineSeconds()).isEqualTo(20 + 70 + 300 + 120 + 180);
    var pod = spec.getTemplate().getSpec();
    var container = pod.getContainers().getFirst();
    assertThat(container.getArgs())
        .containsSequence("--rate", "10000")
        .containsSequence("--control-port", "9090")
        .containsSequence("--generators", "3", "--await-start")
        .containsSequence("--start-timeout", "300s", "--linger", "120s");
    assertThat(container.getPorts())
        .singleElement()
        .satisfies(p -> assertThat(p.getContainerPort()).isEqualTo(9090));
    assertThat(pod.getTopologySpreadConstraints())
        .singleElement()
        .satisfies(c -> {
          assertThat(c.getTopologyKey()).isEqualTo("kubernetes.io/hostname");
          assertThat(c.getMaxSkew()).isEqualTo(1);
          assertThat(c.getLabelSelector().getMatchLabels())
              .containsEntry("app.kubernetes.io/instance", "put-10k");
        });
  }

  @Test
  void aSingleGeneratorStartsAtOnceAndServesItsProgressAndMetrics() {
    var job = JobDependent.build(model(spec -> {}));
    assertThat(job.getSpec().getCompletionMode()).isNull();
    assertThat(job.getSpec().getCompletions()).isEqualTo(1);
    var template = job.getSpec().getTemplate();
    var container = template.getSpec().getContainers().getFirst();
    assertThat(container.getArgs()).doesNotContain("--generators", "--await-start", "--linger");
    assertThat(container.getPorts())
        .singleElement()
        .satisfies(p -> assertThat(p.getContainerPort()).isEqualTo(9090));
    assertThat(template.getMetadata().getAnnotations())
        .containsEntry("prometheus.io/scrape", "true")
        .containsEntry("prometheus.io/port", "9090")
        .containsEntry("prometheus.io/path", "/metrics");
  }

  @Test
  void theGeneratorDemandsTheTestsControlTokenMountedReadOnly() {
    var pod = JobDependent.build(model(spec -> {})).getSpec().getTemplate().getSpec();
    var volume =
        pod.getVolumes().stream()
            .filter(v ->
                v.getSecret() != null && "put-10k-control".equals(v.getSecret().getSecretName()))
            .findFirst()
            .orElseThrow();
    var container = pod.getContainers().getFirst();
    assertThat(container.getVolumeMounts())
        .filteredOn(m -> m.getName().equals(volume.getName()))
        .singleElement()
        .satisfies(m -> {
          assertThat(m.getMountPath()).isEqualTo("/etc/dht-control");
          assertThat(m.getReadOnly()).isTrue();
        });
    assertThat(container.getArgs())
        .containsSequence("--control-token-file", "/etc/dht-control/" + ControlToken.KEY);
  }

  @Test
  void thePodPullsItsImageAsTheModelSays() {
    var pod = JobDependent.build(model(spec -> {})).getSpec().getTemplate().getSpec();
    assertThat(pod.getContainers().getFirst().getImagePullPolicy()).isEqualTo("IfNotPresent");
    assertThat(pod.getImagePullSecrets()).isEmpty();

    var test = LoadTests.test("put-10k", "demo");
    var target =
        Target.resolve(
            test, Optional.of(LoadTests.cluster("demo", true)), LoadTests.IMAGE, LoadTests.POLICY);
    var pulled =
        JobDependent.build(
                LoadTestModel.of(
                    test, target, new ImagePull("Always", java.util.List.of("regcred", "mirror"))))
            .getSpec()
            .getTemplate()
            .getSpec();
    assertThat(pulled.getContainers().getFirst().getImagePullPolicy()).isEqualTo("Always");
    assertThat(pulled.getImagePullSecrets())
        .extracting(LocalObjectReference::getName)
        .containsExactly("regcred", "mirror");
  }

  @Test
  void thePodIsNonRootWithTheTerminationMessageInAFile() {
    var pod = JobDependent.build(model(spec -> {})).getSpec().getTemplate().getSpec();
    assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
    assertThat(pod.getSecurityContext().getRunAsUser()).isEqualTo(10001L);
    assertThat(pod.getAutomountServiceAccountToken()).isFalse();
    assertThat(pod.getEnableServiceLinks()).isFalse();
    var container = pod.getContainers().getFirst();
    assertThat(container.getName()).isEqualTo("loadgen");
    assertThat(container.getImage()).isEqualTo(LoadTests.IMAGE);
    assertThat(container.getTerminationMessagePath()).isEqualTo("/dev/termination-log");
    assertThat(container.getTerminationMessagePolicy()).isEqualTo("File");
    assertThat(container.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
    assertThat(container.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
    assertThat(container.getSecurityContext().getCapabilities().getDrop()).containsExactly("ALL");
    assertThat(container.getVolumeMounts()).anyMatch(m -> m.getMountPath().equals("/tmp"));
    assertThat(container.getResources().getRequests())
        .containsEntry("cpu", new Quantity("500m"))
        .containsEntry("memory", new Quantity("256Mi"));
    assertThat(container.getResources().getLimits())
        .as("memory capped, CPU not: throttling would read as latency")
        .containsOnlyKeys("memory");
  }

  @Test
  void resourcesAndSchedulingComeFromTheSpecWhenSet() {
    var scheduling = new Scheduling();
    scheduling.setNodeSelector(Map.of("pool", "loadgen"));
    var resources =
        new ResourceRequirementsBuilder().addToRequests("cpu", new Quantity("2")).build();
    var pod =
        JobDependent.build(
                model(spec -> {
                  spec.setScheduling(scheduling);
                  spec.setResources(resources);
                }))
            .getSpec()
            .getTemplate()
            .getSpec();
    assertThat(pod.getNodeSelector()).containsEntry("pool", "loadgen");
    assertThat(pod.getContainers().getFirst().getResources()).isEqualTo(resources);
    assertThat(pod.getContainers().getFirst().getArgs())
        .as("two cores: two event loops")
        .containsSequence("--threads", "2");
  }

  @Test
  void aTargetUrlIsUsedVerbatim() {
    var test = LoadTests.test("ext", "unused");
    test.getSpec().setClusterRef(null);
    test.getSpec().setTargetUrl("http://10.1.2.3:8080");
    var model =
        LoadTestModel.of(
            test, Target.resolve(test, Optional.empty(), LoadTests.IMAGE, LoadTests.POLICY));
    assertThat(model.args()).containsSequence("--url", "http://10.1.2.3:8080");
  }

  @Test
  void theGeneratorPrefersAHostWithoutTheClustersNodesUnlessTheUserPlacesIt() {
    var pod = JobDependent.build(model(spec -> {})).getSpec().getTemplate().getSpec();
    var terms =
        pod.getAffinity().getPodAntiAffinity().getPreferredDuringSchedulingIgnoredDuringExecution();
    assertThat(terms).hasSize(1);
    var term = terms.getFirst().getPodAffinityTerm();
    assertThat(term.getTopologyKey()).isEqualTo("kubernetes.io/hostname");
    assertThat(term.getLabelSelector().getMatchLabels())
        .isEqualTo(ClusterModel.of(LoadTests.cluster("demo", true), "img").selectorLabels());

    var scheduling = new Scheduling();
    scheduling.setAffinity(new AffinityBuilder().withNewNodeAffinity().endNodeAffinity().build());
    var placed =
        JobDependent.build(model(spec -> spec.setScheduling(scheduling)))
            .getSpec()
            .getTemplate()
            .getSpec();
    assertThat(placed.getAffinity()).isEqualTo(scheduling.getAffinity());

    var external = LoadTests.test("ext", "unused");
    external.getSpec().setClusterRef(null);
    external.getSpec().setTargetUrl("http://10.1.2.3:8080");
    var model =
        LoadTestModel.of(
            external, Target.resolve(external, Optional.empty(), "img", LoadTests.POLICY));
    assertThat(JobDependent.build(model).getSpec().getTemplate().getSpec().getAffinity()).isNull();
  }
}
