package dev.dht.operator.loadtest.job;

import dev.dht.operator.cluster.ClusterModel;
import dev.dht.operator.cluster.Scheduling;
import dev.dht.operator.kube.SecurityContexts;
import dev.dht.operator.loadtest.DhtLoadTest;
import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.AffinityBuilder;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ContainerPortBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import io.fabric8.kubernetes.api.model.TopologySpreadConstraint;
import io.fabric8.kubernetes.api.model.TopologySpreadConstraintBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.javaoperatorsdk.operator.api.config.informer.Informer;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.dependent.GarbageCollected;
import io.javaoperatorsdk.operator.processing.dependent.Creator;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependent;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.KubernetesDependentResource;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import java.util.ArrayList;
import java.util.List;

/**
 * The load generator Job, run once. Created, never updated (a Job's template is immutable, and a
 * test must not re-run behind the user's back); owned by the DhtLoadTest, so deleting the test
 * garbage-collects the Job and its pod. Not an Updater: JOSDK leaves an existing Job alone.
 */
@KubernetesDependent(informer = @Informer(labelSelector = ClusterModel.MANAGED_BY_SELECTOR))
public class JobDependent extends KubernetesDependentResource<Job, DhtLoadTest>
    implements Creator<Job, DhtLoadTest>, GarbageCollected<DhtLoadTest> {

  /** The node image's user: lets runAsNonRoot pass. */
  static final long LOADGEN_UID = 10001L;

  private static final String TMP_VOLUME = "tmp";
  private static final String CA_VOLUME = "cluster-ca";
  private static final String TOKEN_VOLUME = "user-token";
  private static final String CONTROL_TOKEN_VOLUME = "control-token";

  public JobDependent() {
    super(Job.class);
  }

  @Override
  protected Job desired(DhtLoadTest primary, Context<DhtLoadTest> context) {
    var model =
        context
            .managedWorkflowAndDependentResourceContext()
            .getMandatory(LoadTestModel.CONTEXT_KEY, LoadTestModel.class);
    return build(model);
  }

  @Override
  protected ResourceID targetSecondaryResourceID(
      DhtLoadTest primary, Context<DhtLoadTest> context) {
    return new ResourceID(
        LoadTestModel.jobName(primary.getMetadata().getName()),
        primary.getMetadata().getNamespace());
  }

  /**
   * One pod per generator: a parallel test is an indexed Job, each pod learning its index from
   * {@code JOB_COMPLETION_INDEX}.
   */
  static Job build(LoadTestModel model) {
    return new JobBuilder()
        .withNewMetadata()
        .withName(model.jobName())
        .withNamespace(model.namespace())
        .withLabels(model.labels())
        .endMetadata()
        .withNewSpec()
        // One attempt: a retry would mix two runs' load on the cluster and hide the failure.
        .withBackoffLimit(0)
        .withCompletions(model.parallelism())
        .withParallelism(model.parallelism())
        .withCompletionMode(model.parallel() ? "Indexed" : null)
        .withActiveDeadlineSeconds(model.activeDeadlineSeconds())
        // No ttlSecondsAfterFinished: the pod (termination message, log) must stay readable.
        .withNewTemplate()
        .withNewMetadata()
        .withLabels(model.labels())
        // the generators' /metrics, for a Prometheus that scrapes annotated pods
        .addToAnnotations("prometheus.io/scrape", "true")
        .addToAnnotations("prometheus.io/port", Integer.toString(GeneratorPods.CONTROL_PORT))
        .addToAnnotations("prometheus.io/path", "/metrics")
        .endMetadata()
        .withSpec(podSpec(model))
        .endTemplate()
        .endSpec()
        .build();
  }

  static PodSpec podSpec(LoadTestModel model) {
    var scheduling = model.scheduling() == null ? new Scheduling() : model.scheduling();
    return new PodSpecBuilder()
        .withRestartPolicy("Never")
        .withEnableServiceLinks(false)
        .withAutomountServiceAccountToken(false)
        .withTerminationGracePeriodSeconds(10L)
        .withNewSecurityContext()
        .withRunAsNonRoot(true)
        .withRunAsUser(LOADGEN_UID)
        .withRunAsGroup(LOADGEN_UID)
        .withNewSeccompProfile()
        .withType("RuntimeDefault")
        .endSeccompProfile()
        .endSecurityContext()
        .withAffinity(affinity(scheduling.getAffinity(), model.clusterName()))
        .withTolerations(scheduling.getTolerations())
        .withNodeSelector(scheduling.getNodeSelector())
        .withTopologySpreadConstraints(spread(scheduling, model))
        .withImagePullSecrets(model.imagePull().secretReferences())
        .withContainers(container(model))
        .withVolumes(volumes(model))
        .build();
  }

  /**
   * The user's affinity; if none, and the target is a DhtCluster, a preference for a host without
   * its nodes: a generator beside a node takes CPU from it, and its latency then reads as the
   * node's. Where the cluster has no such host (one machine), it runs beside them anyway.
   */
  static Affinity affinity(Affinity user, String clusterName) {
    if (user != null || clusterName == null) {
      return user;
    }
    return new AffinityBuilder()
        .withNewPodAntiAffinity()
        .addNewPreferredDuringSchedulingIgnoredDuringExecution()
        .withWeight(100)
        .withNewPodAffinityTerm()
        .withTopologyKey("kubernetes.io/hostname")
        .withNewLabelSelector()
        .withMatchLabels(ClusterModel.selectorLabels(clusterName))
        .endLabelSelector()
        .endPodAffinityTerm()
        .endPreferredDuringSchedulingIgnoredDuringExecution()
        .endPodAntiAffinity()
        .build();
  }

  /** The user's constraints, and with spreadAcrossNodes one more over the generator pods. */
  static List<TopologySpreadConstraint> spread(Scheduling scheduling, LoadTestModel model) {
    var constraints = new ArrayList<TopologySpreadConstraint>();
    if (scheduling.getTopologySpreadConstraints() != null) {
      constraints.addAll(scheduling.getTopologySpreadConstraints());
    }
    if (model.spreadAcrossNodes()) {
      constraints.add(
          new TopologySpreadConstraintBuilder()
              .withMaxSkew(1)
              .withTopologyKey("kubernetes.io/hostname")
              .withWhenUnsatisfiable("DoNotSchedule")
              // hosts that a generator may not run on (tainted, not selected) are no domain
              .withNodeTaintsPolicy("Honor")
              .withNodeAffinityPolicy("Honor")
              .withNewLabelSelector()
              .withMatchLabels(model.labels())
              .endLabelSelector()
              .build());
    }
    return constraints;
  }

  private static List<Volume> volumes(LoadTestModel model) {
    var volumes = new ArrayList<Volume>();
    volumes.add(
        new VolumeBuilder()
            .withName(TMP_VOLUME)
            .withNewEmptyDir()
            .withSizeLimit(new Quantity("64Mi"))
            .endEmptyDir()
            .build());
    // the control port's token, which the generator demands of the operator
    volumes.add(
        new VolumeBuilder()
            .withName(CONTROL_TOKEN_VOLUME)
            .withNewSecret()
            .withSecretName(ControlToken.secretName(model.name()))
            .endSecret()
            .build());
    if (model.caSecretName() != null) {
      volumes.add(
          new VolumeBuilder()
              .withName(CA_VOLUME)
              .withNewSecret()
              .withSecretName(model.caSecretName())
              .endSecret()
              .build());
    }
    if (model.tokenSecretName() != null) {
      volumes.add(
          new VolumeBuilder()
              .withName(TOKEN_VOLUME)
              .withNewSecret()
              .withSecretName(model.tokenSecretName())
              .endSecret()
              .build());
    }
    return volumes;
  }

  static Container container(LoadTestModel model) {
    return new ContainerBuilder()
        .withName(LoadTestModel.CONTAINER)
        .withImage(model.image())
        .withImagePullPolicy(model.imagePull().policy())
        // The image's entrypoint (java <its JVM flags> ... dev.dht.app.DhtMain) is kept; only the
        // arguments change, so heap sizing and OOM handling stay the image's.
        .withArgs(model.args())
        .withTerminationMessagePath(LoadTestModel.TERMINATION_LOG)
        // File, not FallbackToLogsOnError: the log is wrk2 text, the operator wants the JSON.
        .withTerminationMessagePolicy("File")
        .withPorts(
            new ContainerPortBuilder()
                .withName("control")
                .withContainerPort(GeneratorPods.CONTROL_PORT)
                .build())
        .withResources(model.resources() != null ? model.resources() : defaultResources())
        .withSecurityContext(SecurityContexts.restricted())
        .withVolumeMounts(mounts(model))
        .build();
  }

  private static List<VolumeMount> mounts(LoadTestModel model) {
    var mounts = new ArrayList<VolumeMount>();
    mounts.add(new VolumeMountBuilder().withName(TMP_VOLUME).withMountPath("/tmp").build());
    mounts.add(
        new VolumeMountBuilder()
            .withName(CONTROL_TOKEN_VOLUME)
            .withMountPath(LoadTestModel.CONTROL_TOKEN_DIR)
            .withReadOnly(true)
            .build());
    if (model.caSecretName() != null) {
      mounts.add(
          new VolumeMountBuilder()
              .withName(CA_VOLUME)
              .withMountPath(LoadTestModel.CA_DIR)
              .withReadOnly(true)
              .build());
    }
    if (model.tokenSecretName() != null) {
      mounts.add(
          new VolumeMountBuilder()
              .withName(TOKEN_VOLUME)
              .withMountPath(LoadTestModel.TOKEN_DIR)
              .withReadOnly(true)
              .build());
    }
    return mounts;
  }

  /** Modest; no CPU limit, since CFS throttling of the generator would read as server latency. */
  static ResourceRequirements defaultResources() {
    return new ResourceRequirementsBuilder()
        .addToRequests("cpu", new Quantity("500m"))
        .addToRequests("memory", new Quantity("256Mi"))
        .addToLimits("memory", new Quantity("512Mi"))
        .build();
  }
}
