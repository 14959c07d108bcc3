package dev.dht.operator.cluster;

import static dev.dht.operator.cluster.Clusters.cluster;
import static dev.dht.operator.cluster.Clusters.model;
import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.operator.settings.TopologySpec;
import io.fabric8.kubernetes.api.model.AffinityBuilder;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.TopologySpreadConstraintBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class StatefulSetDependentTest {

  private static StatefulSet build(DhtCluster cluster) {
    return StatefulSetDependent.build(model(cluster));
  }

  private static Container node(StatefulSet sts) {
    return sts.getSpec().getTemplate().getSpec().getContainers().getFirst();
  }

  @Test
  void nodesStartInParallelBehindThePeerService() {
    var sts = build(cluster("demo", "ns", 3));
    assertThat(sts.getMetadata().getName()).isEqualTo("demo");
    assertThat(sts.getSpec().getReplicas()).isEqualTo(3);
    assertThat(sts.getSpec().getServiceName()).isEqualTo("demo-peers");
    assertThat(sts.getSpec().getPodManagementPolicy()).isEqualTo("Parallel");
    assertThat(sts.getSpec().getSelector().getMatchLabels())
        .isEqualTo(Map.of("app.kubernetes.io/name", "dht", "app.kubernetes.io/instance", "demo"));
    assertThat(sts.getSpec().getTemplate().getMetadata().getLabels())
        .containsAllEntriesOf(sts.getSpec().getSelector().getMatchLabels());
  }

  @Test
  void aNewClusterServesTlsWithEachRoleOnAPortOfItsOwn() {
    var sts = build(cluster("demo", "ns", 3));
    var node = node(sts);
    assertThat(node.getPorts())
        .extracting(p -> p.getName() + "=" + p.getContainerPort())
        .containsExactly("http=8080", "peer=7070", "admin=9090");
    assertThat(node.getArgs())
        .contains(
            "--peer-port=7070",
            "--admin-port=9090",
            "--tls-cert-file=/etc/dht-tls/tls.crt",
            "--tls-key-file=/etc/dht-tls/tls.key",
            "--tls-ca-file=/etc/dht-tls/ca.crt");
    assertThat(mounts(node)).containsEntry("tls", "/etc/dht-tls");
    assertThat(sts.getSpec().getTemplate().getSpec().getVolumes())
        .anyMatch(
            v -> v.getSecret() != null && "demo-node-tls".equals(v.getSecret().getSecretName()));
    var ready = node.getReadinessProbe().getHttpGet();
    assertThat(ready.getPort().getStrVal()).isEqualTo("admin");
    assertThat(ready.getScheme()).isEqualTo("HTTPS");
    assertThat(sts.getSpec().getTemplate().getMetadata().getLabels())
        .containsEntry("dht.dev/tls", "true");
  }

  @Test
  void aPlainClusterKeepsOnePortAndTheFlagsOfBefore() {
    var sts = build(Clusters.plain("demo", "ns", 3));
    var node = node(sts);
    assertThat(node.getPorts()).extracting(p -> p.getName()).containsExactly("http");
    assertThat(node.getArgs()).noneMatch(a -> a.startsWith("--peer-port") || a.startsWith("--tls"));
    assertThat(node.getReadinessProbe().getHttpGet().getScheme()).isNull();
    assertThat(mounts(node)).doesNotContainKey("tls");
    assertThat(sts.getSpec().getTemplate().getMetadata().getLabels())
        .doesNotContainKey("dht.dev/tls");
  }

  @Test
  void dataLivesOnAClaimFromTheStorageSpec() {
    var cluster = cluster(3);
    cluster.getSpec().getStorage().setSize("5Gi");
    cluster.getSpec().getStorage().setStorageClassName("fast");
    var claim = build(cluster).getSpec().getVolumeClaimTemplates().getFirst();
    assertThat(claim.getMetadata().getName()).isEqualTo("data");
    assertThat(claim.getSpec().getResources().getRequests().get("storage"))
        .isEqualTo(new Quantity("5Gi"));
    assertThat(claim.getSpec().getStorageClassName()).isEqualTo("fast");
    assertThat(claim.getSpec().getAccessModes()).containsExactly("ReadWriteOnce");
    assertThat(mounts(node(build(cluster)))).containsEntry("data", "/data");
  }

  @Test
  void flagsPointAtTheMountedFiles() {
    var cluster = Clusters.plain("demo", "ns", 3);
    cluster.getSpec().getThreads().setEventLoops(3);
    cluster.getSpec().getThreads().setStorageWorkers(5);
    cluster.getSpec().getLimits().setMaxInflight(10);
    cluster.getSpec().getLimits().setRequestTimeoutMs(20);
    cluster.getSpec().getLimits().setMaxValueBytes(30);
    var node = node(build(cluster));
    assertThat(node.getImage()).isEqualTo(Clusters.IMAGE);
    assertThat(node.getArgs())
        .containsExactly(
            "--port=8080",
            "--data-dir=/data",
            "--self=http://$(POD_NAME).demo-peers.ns.svc:8080",
            "--cluster-file=/etc/dht/members",
            "--cluster-secret-file=/etc/dht-secret/secret",
            "--cluster-secret-also-accepted-file=/etc/dht-secret/also-accepted",
            "--event-loops=3",
            "--storage-threads=5",
            "--max-inflight=10",
            "--request-timeout-ms=20",
            "--max-value-bytes=30",
            "--warm-up-s=60",
            "--shutdown-delay-ms=5000",
            "--users-file=/etc/dht-users/users.json");
    assertThat(node.getEnv().getFirst().getName()).isEqualTo("POD_NAME");
    assertThat(node.getEnv().getFirst().getValueFrom().getFieldRef().getFieldPath())
        .isEqualTo("metadata.name");
    assertThat(mounts(node))
        .containsEntry("config", "/etc/dht")
        .containsEntry("cluster-secret", "/etc/dht-secret")
        .containsEntry("users", "/etc/dht-users");
    var volumes = build(cluster).getSpec().getTemplate().getSpec().getVolumes();
    assertThat(volumes.stream().filter(v -> v.getConfigMap() != null))
        .singleElement()
        .satisfies(v -> assertThat(v.getConfigMap().getName()).isEqualTo("demo-config"));
    assertThat(volumes.stream().filter(v -> v.getSecret() != null))
        .extracting(v -> v.getSecret().getSecretName())
        .containsExactly("demo-secret", "demo-users");
  }

  @Test
  void aClusterMadeBeforeUsersGetsNoUsersFileUntilItsSpecAsksForOne() {
    var cluster = Clusters.plain("demo", "ns", 3);
    cluster.getSpec().setAuthentication(null);
    cluster.setStatus(
        DhtClusterStatus.builder()
            .members(List.of("http://demo-0.demo-peers.ns.svc:8080"))
            .build());
    var node = node(build(cluster));
    assertThat(node.getArgs()).noneMatch(arg -> arg.startsWith("--users-file"));
    assertThat(mounts(node)).doesNotContainKey("users");
  }

  @Test
  void jvmOptionsEnableNativeAccessForRocksDb() {
    var cluster = cluster(3);
    cluster.getSpec().setJvmOptions(List.of("-Xss512k"));
    var env =
        node(build(cluster)).getEnv().stream().collect(Collectors.toMap(EnvVar::getName, e -> e));
    assertThat(env.get("JDK_JAVA_OPTIONS").getValue())
        .startsWith("--enable-native-access=ALL-UNNAMED")
        .endsWith("-Xss512k");
  }

  @Test
  void probesUseTheNodeHealthEndpoints() {
    var node = node(build(Clusters.plain("demo", "ns", 3)));
    assertThat(node.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/health/ready");
    assertThat(node.getLivenessProbe().getHttpGet().getPath()).isEqualTo("/health/live");
    assertThat(node.getStartupProbe().getHttpGet().getPath()).isEqualTo("/health/live");
    assertThat(node.getReadinessProbe().getHttpGet().getPort().getStrVal()).isEqualTo("http");
    assertThat(node.getPorts().getFirst().getContainerPort()).isEqualTo(8080);
  }

  @Test
  void runsAsTheImagesNonRootUserWithNothingExtra() {
    var pod = build(cluster(3)).getSpec().getTemplate().getSpec();
    assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
    assertThat(pod.getSecurityContext().getRunAsUser()).isEqualTo(10001L);
    assertThat(pod.getSecurityContext().getFsGroup()).isEqualTo(10001L);
    var container = pod.getContainers().getFirst().getSecurityContext();
    assertThat(container.getReadOnlyRootFilesystem()).isTrue();
    assertThat(container.getAllowPrivilegeEscalation()).isFalse();
    assertThat(container.getCapabilities().getDrop()).containsExactly("ALL");
    assertThat(mounts(pod.getContainers().getFirst())).containsEntry("tmp", "/tmp");
    assertThat(pod.getTerminationGracePeriodSeconds()).isGreaterThanOrEqualTo(30L);
    assertThat(pod.getEnableServiceLinks()).isFalse();
  }

  @Test
  void theRevisionIsAPodTemplateAnnotation() {
    var cluster = cluster(3);
    var annotations = build(cluster).getSpec().getTemplate().getMetadata().getAnnotations();
    assertThat(annotations)
        .containsEntry(
            "dht.dev/revision", model(cluster).desiredRevision().revision().annotation());
    assertThat(annotations.get("dht.dev/revision"))
        .matches(
            "env=\\w{8} flags=\\w{8} image=\\w{8} inputs=\\w{8} resources=\\w{8}"
                + " scheduling=\\w{8} template=\\w{8}");
  }

  @Test
  void anyChangeOfTheRenderedTemplateChangesItsRevisionAndIsNamed() {
    var model = model(cluster(3));
    var rendered = NodePodTemplate.render(model);
    var base = NodePodTemplate.revision(rendered, model.inputs());
    rendered.getSpec().getContainers().getFirst().getReadinessProbe().setPeriodSeconds(7);
    var probe = NodePodTemplate.revision(rendered, model.inputs());
    assertThat(probe.changesFrom(base)).containsExactly("pod template");
    rendered.getSpec().getContainers().getFirst().getArgs().add("--something-new");
    assertThat(NodePodTemplate.revision(rendered, model.inputs()).changesFrom(base))
        .containsExactly("node flags", "pod template");
  }

  @Test
  void imagePullSettingsDoNotChangeTheRevision() {
    var before = cluster(3);
    var after = cluster(3);
    after.getSpec().setImagePullPolicy(DhtClusterSpec.PullPolicy.Always);
    after.getSpec().setImagePullSecrets(List.of(new LocalObjectReference("registry")));
    assertThat(model(after).desiredRevision()).isEqualTo(model(before).desiredRevision());
  }

  @Test
  void defaultAckAndFromDoNotTouchThePodTemplate() {
    var before = cluster(3);
    var after = cluster(3);
    after.getSpec().getReplication().setDefaultAck(3);
    assertThat(build(after).getSpec().getTemplate())
        .isEqualTo(build(before).getSpec().getTemplate());
  }

  @Test
  void resourcesAndSchedulingComeFromTheSpec() {
    var cluster = cluster(3);
    var resources = new ResourceRequirements();
    resources.setRequests(Map.of("cpu", new Quantity("250m")));
    cluster.getSpec().setResources(resources);
    var scheduling = new Scheduling();
    scheduling.setNodeSelector(Map.of("disk", "ssd"));
    var toleration = new Toleration();
    toleration.setKey("dedicated");
    toleration.setOperator("Exists");
    scheduling.setTolerations(List.of(toleration));
    cluster.getSpec().setScheduling(scheduling);
    var pod = build(cluster).getSpec().getTemplate().getSpec();
    assertThat(pod.getContainers().getFirst().getResources()).isEqualTo(resources);
    assertThat(pod.getNodeSelector()).containsEntry("disk", "ssd");
    assertThat(pod.getTolerations()).containsExactly(toleration);
    // no affinity given: a soft preference for one node per host
    assertThat(
            pod.getAffinity()
                .getPodAntiAffinity()
                .getPreferredDuringSchedulingIgnoredDuringExecution())
        .hasSize(1);
  }

  @Test
  void aUsersAffinityIsKeptAndGetsTheSpreadOverHostsToo() {
    var cluster = cluster(3);
    var scheduling = new Scheduling();
    scheduling.setAffinity(
        new AffinityBuilder()
            .withNewNodeAffinity()
            .withNewRequiredDuringSchedulingIgnoredDuringExecution()
            .addNewNodeSelectorTerm()
            .addNewMatchExpression()
            .withKey("disk")
            .withOperator("In")
            .withValues("ssd")
            .endMatchExpression()
            .endNodeSelectorTerm()
            .endRequiredDuringSchedulingIgnoredDuringExecution()
            .endNodeAffinity()
            .build());
    cluster.getSpec().setScheduling(scheduling);
    var affinity = build(cluster).getSpec().getTemplate().getSpec().getAffinity();
    assertThat(affinity.getNodeAffinity()).isEqualTo(scheduling.getAffinity().getNodeAffinity());
    assertThat(affinity.getPodAntiAffinity().getPreferredDuringSchedulingIgnoredDuringExecution())
        .singleElement()
        .satisfies(t ->
            assertThat(t.getPodAffinityTerm().getTopologyKey())
                .isEqualTo("kubernetes.io/hostname"));

    // a user who spreads over hosts already (here: strictly) gets no second term
    scheduling.setAffinity(
        new AffinityBuilder()
            .withNewPodAntiAffinity()
            .addNewRequiredDuringSchedulingIgnoredDuringExecution()
            .withTopologyKey("kubernetes.io/hostname")
            .withNewLabelSelector()
            .addToMatchLabels("app.kubernetes.io/instance", "demo")
            .endLabelSelector()
            .endRequiredDuringSchedulingIgnoredDuringExecution()
            .endPodAntiAffinity()
            .build());
    var strict = build(cluster).getSpec().getTemplate().getSpec().getAffinity();
    assertThat(strict).isEqualTo(scheduling.getAffinity());
  }

  @Test
  void podsSpreadOverZonesUnlessTheUserDoesAndHostsCanBeRequired() {
    var pod = build(cluster(3)).getSpec().getTemplate().getSpec();
    assertThat(pod.getTopologySpreadConstraints())
        .singleElement()
        .satisfies(c -> {
          assertThat(c.getTopologyKey()).isEqualTo("topology.kubernetes.io/zone");
          assertThat(c.getMaxSkew()).isEqualTo(1);
          assertThat(c.getWhenUnsatisfiable()).isEqualTo("ScheduleAnyway");
          assertThat(c.getLabelSelector().getMatchLabels())
              .containsEntry("app.kubernetes.io/instance", "demo");
        });

    var racks = cluster(3);
    racks
        .getSpec()
        .setTopology(
            TopologySpec.builder()
                .zoneKey("example.com/rack")
                .requiredHostAntiAffinity(true)
                .build());
    var own =
        new TopologySpreadConstraintBuilder()
            .withMaxSkew(2)
            .withTopologyKey("example.com/rack")
            .withWhenUnsatisfiable("DoNotSchedule")
            .withNewLabelSelector()
            .addToMatchLabels("app.kubernetes.io/instance", "demo")
            .endLabelSelector()
            .build();
    var scheduling = new Scheduling();
    scheduling.setTopologySpreadConstraints(List.of(own));
    racks.getSpec().setScheduling(scheduling);
    var strict = build(racks).getSpec().getTemplate().getSpec();
    assertThat(strict.getTopologySpreadConstraints()).as("the user's own").containsExactly(own);
    var anti = strict.getAffinity().getPodAntiAffinity();
    assertThat(anti.getPreferredDuringSchedulingIgnoredDuringExecution()).isEmpty();
    assertThat(anti.getRequiredDuringSchedulingIgnoredDuringExecution())
        .singleElement()
        .satisfies(t -> assertThat(t.getTopologyKey()).isEqualTo("kubernetes.io/hostname"));
  }

  @Test
  void requiredHostsWinOverAUsersPreferenceAndTermsForOtherPodsDoNotCount() {
    var cluster = cluster(3);
    var scheduling = new Scheduling();
    scheduling.setAffinity(
        new AffinityBuilder()
            .withNewPodAntiAffinity()
            .addNewPreferredDuringSchedulingIgnoredDuringExecution()
            .withWeight(50)
            .withNewPodAffinityTerm()
            .withTopologyKey("kubernetes.io/hostname")
            .withNewLabelSelector()
            .addToMatchLabels("app.kubernetes.io/instance", "demo")
            .endLabelSelector()
            .endPodAffinityTerm()
            .endPreferredDuringSchedulingIgnoredDuringExecution()
            .endPodAntiAffinity()
            .build());
    scheduling.setTopologySpreadConstraints(
        List.of(
            new TopologySpreadConstraintBuilder()
                .withMaxSkew(1)
                .withTopologyKey("topology.kubernetes.io/zone")
                .withWhenUnsatisfiable("DoNotSchedule")
                .withNewLabelSelector()
                .addToMatchLabels("app", "web")
                .endLabelSelector()
                .build()));
    cluster.getSpec().setScheduling(scheduling);
    var preferring = build(cluster).getSpec().getTemplate().getSpec();
    assertThat(preferring.getAffinity())
        .as("the user's preference suffices")
        .isEqualTo(scheduling.getAffinity());
    assertThat(preferring.getTopologySpreadConstraints())
        .as("a spread of other pods is not the cluster's")
        .hasSize(2);

    cluster.getSpec().setTopology(TopologySpec.builder().requiredHostAntiAffinity(true).build());
    var anti = build(cluster).getSpec().getTemplate().getSpec().getAffinity().getPodAntiAffinity();
    assertThat(anti.getPreferredDuringSchedulingIgnoredDuringExecution()).hasSize(1);
    assertThat(anti.getRequiredDuringSchedulingIgnoredDuringExecution())
        .singleElement()
        .satisfies(t -> assertThat(t.getTopologyKey()).isEqualTo("kubernetes.io/hostname"));
  }

  @Test
  void withoutResourcesNodesAreNotBestEffortAndTheHeapFollowsTheLimit() {
    var node = node(build(cluster(3)));
    assertThat(node.getResources().getRequests()).containsKeys("cpu", "memory");
    assertThat(node.getResources().getLimits()).containsKey("memory");
    assertThat(node.getResources().getLimits()).doesNotContainKey("cpu");
    assertThat(node.getEnv().get(1).getValue()).contains("-XX:MaxRAMPercentage=50");
  }

  @Test
  void pullPolicyAndSecretsComeFromTheOperatorUnlessTheSpecSays() {
    var cluster = cluster(3);
    var operator = new ImagePull("Always", List.of("registry-a"));
    var pod =
        StatefulSetDependent.build(
                ClusterModel.of(cluster, OperatorDefaults.current("i"), operator))
            .getSpec()
            .getTemplate()
            .getSpec();
    assertThat(pod.getContainers().getFirst().getImagePullPolicy()).isEqualTo("Always");
    assertThat(pod.getImagePullSecrets())
        .extracting(LocalObjectReference::getName)
        .containsExactly("registry-a");
    cluster.getSpec().setImagePullPolicy(DhtClusterSpec.PullPolicy.Never);
    cluster.getSpec().setImagePullSecrets(List.of(new LocalObjectReference("mine")));
    pod =
        StatefulSetDependent.build(
                ClusterModel.of(cluster, OperatorDefaults.current("i"), operator))
            .getSpec()
            .getTemplate()
            .getSpec();
    assertThat(pod.getContainers().getFirst().getImagePullPolicy()).isEqualTo("Never");
    assertThat(pod.getImagePullSecrets())
        .extracting(LocalObjectReference::getName)
        .containsExactly("mine");
  }

  private static Map<String, String> mounts(Container container) {
    return container.getVolumeMounts().stream()
        .collect(Collectors.toMap(VolumeMount::getName, VolumeMount::getMountPath));
  }
}
