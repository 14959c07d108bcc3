package dev.dht.operator.cluster;

import dev.dht.contract.NodeFlags;
import dev.dht.operator.kube.SecurityContexts;
import dev.dht.operator.rolling.PodRevision;
import dev.dht.operator.tls.NodeTlsSecret;
import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.AffinityBuilder;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.ContainerPortBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.KeyToPathBuilder;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.PodAffinityTerm;
import io.fabric8.kubernetes.api.model.PodAffinityTermBuilder;
import io.fabric8.kubernetes.api.model.PodAntiAffinity;
import io.fabric8.kubernetes.api.model.PodAntiAffinityBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.ProbeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.TopologySpreadConstraint;
import io.fabric8.kubernetes.api.model.TopologySpreadConstraintBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import io.fabric8.kubernetes.api.model.WeightedPodAffinityTerm;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The node pod, as the StatefulSet creates it, and its revision: a hash of each part of this
 * rendered template, which is what the roller compares (a pod whose template differs restarts),
 * plus the cluster's restart-needing inputs. Pure.
 */
final class NodePodTemplate {
  /** The node image's user (uid/gid 10001): lets runAsNonRoot pass and owns the data volume. */
  static final long NODE_UID = 10001L;

  /** Long enough for the node's graceful stop (finish in-flight requests, close RocksDB). */
  static final long TERMINATION_GRACE_SECONDS = 30L;

  static final String DATA_VOLUME = "data";
  private static final String CONFIG_VOLUME = "config";
  private static final String SECRET_VOLUME = "cluster-secret";
  private static final String TMP_VOLUME = "tmp";
  private static final String TLS_VOLUME = "tls";
  private static final String USERS_VOLUME = "users";
  private static final String STORE_VOLUME = "backup-store";
  private static final String RESTORE_VOLUME = "restore-store";

  /** Where a TLS node finds its certificate, key and trusted CAs (Secret {@code <c>-node-tls}). */
  static final String TLS_DIR = "/etc/dht-tls";

  /**
   * On the pods of a TLS cluster: their admin port (metrics) speaks HTTPS. The chart's PodMonitor
   * picks the scheme by it.
   */
  static final String TLS_LABEL = "dht.dev/tls";

  private NodePodTemplate() {}

  /** The template, annotated with its own revision. */
  static PodTemplateSpec annotated(ClusterModel model) {
    var template = render(model);
    String revision = revision(template, model.inputs()).annotation();
    template.getMetadata().setAnnotations(Map.of(ClusterModel.REVISION_ANNOTATION, revision));
    return template;
  }

  /**
   * Fingerprint of this operator's pod template: the revision it renders for a reference cluster.
   * It changes with the template's shape (probes, volumes, flags the operator sets, ...), so no
   * version is kept by hand; a cluster records the one it accepted ({@link OperatorDefaults}).
   */
  static final String FINGERPRINT = fingerprint();

  /** The revision the pods of {@code model} should run. */
  static PodRevision revision(ClusterModel model) {
    return revision(render(model), model.inputs());
  }

  /**
   * The revision of a rendered template: each part hashed apart, so that a roll names what changed.
   * Image pull settings are left out: a running node needs no restart for them.
   */
  static PodRevision revision(PodTemplateSpec rendered, String inputs) {
    var template = CanonicalJson.copy(rendered, PodTemplateSpec.class);
    template.getMetadata().setAnnotations(null);
    var spec = template.getSpec();
    var node = spec.getContainers().getFirst();
    var parts = new TreeMap<String, String>();
    parts.put("image", CanonicalJson.hash(node.getImage()));
    parts.put("flags", CanonicalJson.hash(node.getArgs()));
    parts.put("env", CanonicalJson.hash(node.getEnv()));
    parts.put("resources", CanonicalJson.hash(node.getResources()));
    parts.put(
        "scheduling",
        CanonicalJson.hash(
            Arrays.asList(
                spec.getAffinity(),
                spec.getTolerations(),
                spec.getNodeSelector(),
                spec.getTopologySpreadConstraints())));
    node.setImage(null);
    node.setArgs(null);
    node.setEnv(null);
    node.setResources(null);
    node.setImagePullPolicy(null);
    spec.setAffinity(null);
    spec.setTolerations(null);
    spec.setNodeSelector(null);
    spec.setTopologySpreadConstraints(null);
    spec.setImagePullSecrets(null);
    parts.put("template", CanonicalJson.hash(template));
    parts.put(PodRevision.INPUTS, inputs);
    return new PodRevision(parts);
  }

  private static String fingerprint() {
    var reference = new DhtCluster();
    reference.getMetadata().setName("reference");
    reference.getMetadata().setNamespace("reference");
    reference.setSpec(new DhtClusterSpec());
    var defaults =
        new OperatorDefaults(
            "reference", ClusterModel.BASE_JVM_OPTIONS, null, OperatorDefaults.defaultResources());
    return revision(render(ClusterModel.of(reference, defaults)), "").id();
  }

  static PodTemplateSpec render(ClusterModel model) {
    return new PodTemplateSpecBuilder()
        .withNewMetadata()
        .withLabels(podLabels(model))
        .endMetadata()
        .withSpec(podSpec(model))
        .build();
  }

  /** The cluster's labels; on a TLS cluster's pods, also {@link #TLS_LABEL}. */
  private static Map<String, String> podLabels(ClusterModel model) {
    if (!model.tls()) {
      return model.labels();
    }
    var labels = new TreeMap<>(model.labels());
    labels.put(TLS_LABEL, "true");
    return labels;
  }

  static PodSpec podSpec(ClusterModel model) {
    var scheduling = model.scheduling() == null ? new Scheduling() : model.scheduling();
    return new PodSpecBuilder()
        .withTerminationGracePeriodSeconds(TERMINATION_GRACE_SECONDS)
        // Service links would inject DHT_PORT=tcp://... for a Service named "dht", clashing
        // with the node's own DHT_* settings.
        .withEnableServiceLinks(false)
        .withAutomountServiceAccountToken(false)
        .withNewSecurityContext()
        .withRunAsNonRoot(true)
        .withRunAsUser(NODE_UID)
        .withRunAsGroup(NODE_UID)
        .withFsGroup(NODE_UID)
        .withFsGroupChangePolicy("OnRootMismatch")
        .withNewSeccompProfile()
        .withType("RuntimeDefault")
        .endSeccompProfile()
        .endSecurityContext()
        .withAffinity(withSpread(scheduling.getAffinity(), model))
        .withImagePullSecrets(model.imagePullSecrets())
        .withTolerations(scheduling.getTolerations())
        .withNodeSelector(scheduling.getNodeSelector())
        .withTopologySpreadConstraints(
            withZoneSpread(scheduling.getTopologySpreadConstraints(), model))
        .withContainers(nodeContainer(model))
        .withVolumes(volumes(model))
        .build();
  }

  static Container nodeContainer(ClusterModel model) {
    var mounts =
        new ArrayList<>(
            List.of(
                mount(DATA_VOLUME, ClusterModel.DATA_DIR, false),
                mount(CONFIG_VOLUME, ClusterModel.CONFIG_DIR, true),
                mount(SECRET_VOLUME, ClusterModel.SECRET_DIR, true),
                mount(TMP_VOLUME, "/tmp", false)));
    if (model.tls()) {
      mounts.add(mount(TLS_VOLUME, TLS_DIR, true));
    }
    if (model.authentication().usersFile()) {
      mounts.add(mount(USERS_VOLUME, ClusterModel.USERS_DIR, true));
    }
    if (model.backups().storeSecret() != null) {
      mounts.add(mount(STORE_VOLUME, BackupWiring.STORE_CREDENTIALS_DIR, true));
    }
    if (model.backups().restoreSecret() != null) {
      mounts.add(mount(RESTORE_VOLUME, BackupWiring.RESTORE_CREDENTIALS_DIR, true));
    }
    return new ContainerBuilder()
        .withName("node")
        .withImage(model.image())
        .withImagePullPolicy(model.imagePullPolicy())
        .withArgs(args(model))
        .withEnv(env(model))
        .withPorts(ports(model))
        .withStartupProbe(probe(model, "/health/live", 2, 60)) // a JVM on 2 shared cores is slow
        .withLivenessProbe(probe(model, "/health/live", 10, 3))
        .withReadinessProbe(probe(model, "/health/ready", 5, 2))
        .withResources(model.resources())
        .withSecurityContext(SecurityContexts.restricted())
        .withVolumeMounts(mounts)
        .build();
  }

  /** Named ports: {@code http} (clients), and on a TLS cluster {@code peer} and {@code admin}. */
  private static List<ContainerPort> ports(ClusterModel model) {
    return model.ports().byName().entrySet().stream()
        .map(port ->
            new ContainerPortBuilder()
                .withName(port.getKey())
                .withContainerPort(port.getValue())
                .withProtocol("TCP")
                .build())
        .toList();
  }

  static final int SHUTDOWN_DELAY_MS = 5000;

  /** The longest warm-up; within the startup probe's 120 s. */
  static final int WARM_UP_SECONDS = 60;

  /** The node's flags; the kubelet expands $(POD_NAME) from the env below. */
  static List<String> args(ClusterModel model) {
    return new NodeFlags.Pod(
            model.ports().client(),
            model.tls()
                ? new NodeFlags.Tls(
                    model.ports().peer(),
                    model.ports().admin(),
                    TLS_DIR + "/" + NodeTlsSecret.CERT,
                    TLS_DIR + "/" + NodeTlsSecret.KEY,
                    TLS_DIR + "/" + NodeTlsSecret.CA)
                : null,
            ClusterModel.DATA_DIR,
            model.selfUrlTemplate(),
            // the members file carries the replication defaults too (its replication lines)
            ClusterModel.CONFIG_DIR + "/" + ClusterModel.MEMBERS_KEY,
            ClusterModel.SECRET_DIR + "/" + ClusterModel.SECRET_KEY,
            // a rotation: the Secret's also-accepted key; the node re-reads both files
            ClusterModel.SECRET_DIR + "/" + ClusterModel.ALSO_ACCEPTED_SECRET_KEY,
            model.authentication().usersFile()
                ? ClusterModel.USERS_DIR + "/" + ClusterModel.USERS_KEY
                : null,
            model.backups().storeFile(),
            model.backups().restoreFile(),
            model.eventLoops(),
            model.storageWorkers(),
            model.maxInflight(),
            model.requestTimeoutMs(),
            model.maxValueBytes(),
            // before it listens, the node runs a training load on scratch nodes in its own JVM
            // until its JIT is quiet: a new pod's first clients meet compiled code
            WARM_UP_SECONDS,
            // on SIGTERM, not Ready at once but serving for 5 s more, while the Services drop the
            // pod (scale-down, rollouts, drains): clients then never meet a pod already gone
            SHUTDOWN_DELAY_MS,
            model.settingFlags())
        .args();
  }

  static List<EnvVar> env(ClusterModel model) {
    return List.of(
        new EnvVarBuilder()
            .withName("POD_NAME")
            .withNewValueFrom()
            .withNewFieldRef()
            .withFieldPath("metadata.name")
            .endFieldRef()
            .endValueFrom()
            .build(),
        // Read by the java launcher only (unlike JAVA_TOOL_OPTIONS, which every JVM tool obeys).
        new EnvVarBuilder().withName("JDK_JAVA_OPTIONS").withValue(model.jvmOptionsEnv()).build());
  }

  private static VolumeMount mount(String volume, String path, boolean readOnly) {
    return new VolumeMountBuilder()
        .withName(volume)
        .withMountPath(path)
        .withReadOnly(readOnly)
        .build();
  }

  /** A GET of the admin port (HTTPS on a TLS cluster: the kubelet does not verify it). */
  private static Probe probe(
      ClusterModel model, String path, int periodSeconds, int failureThreshold) {
    return new ProbeBuilder()
        .withNewHttpGet()
        .withPath(path)
        .withPort(new IntOrString(model.ports().shared() ? "http" : "admin"))
        .withScheme(model.tls() ? "HTTPS" : null)
        .endHttpGet()
        .withPeriodSeconds(periodSeconds)
        .withTimeoutSeconds(2)
        .withFailureThreshold(failureThreshold)
        .build();
  }

  /**
   * The user's topology spread constraints (if any) plus an even spread of the cluster's pods over
   * the zones (spec.topology.zoneKey), unless one of the user's spreads them over that key already.
   * ScheduleAnyway: a Kubernetes node without the label (a one-zone cluster) still takes pods.
   */
  static List<TopologySpreadConstraint> withZoneSpread(
      List<TopologySpreadConstraint> user, ClusterModel model) {
    var constraints = new ArrayList<TopologySpreadConstraint>(user == null ? List.of() : user);
    String key = model.topology().zoneKeyOrDefault();
    if (constraints.stream()
        .noneMatch(
            c -> key.equals(c.getTopologyKey()) && selectsNodes(c.getLabelSelector(), model))) {
      constraints.add(
          new TopologySpreadConstraintBuilder()
              .withMaxSkew(1)
              .withTopologyKey(key)
              .withWhenUnsatisfiable("ScheduleAnyway")
              .withNewLabelSelector()
              .withMatchLabels(model.selectorLabels())
              .endLabelSelector()
              .build());
    }
    return constraints;
  }

  /**
   * The user's affinity (if any) plus one node per host (two replicas on one host fail together):
   * preferred, unless one of the user's anti-affinity terms keeps the cluster's pods off shared
   * hosts already; required if spec.topology.requiredHostAntiAffinity, unless a required term of
   * the user's does.
   */
  static Affinity withSpread(Affinity user, ClusterModel model) {
    var term =
        new PodAffinityTermBuilder()
            .withTopologyKey(HOSTNAME)
            .withNewLabelSelector()
            .withMatchLabels(model.selectorLabels())
            .endLabelSelector()
            .build();
    var merged = user == null ? new Affinity() : new AffinityBuilder(user).build();
    var anti =
        merged.getPodAntiAffinity() == null
            ? new PodAntiAffinity()
            : new PodAntiAffinityBuilder(merged.getPodAntiAffinity()).build();
    boolean required =
        anti.getRequiredDuringSchedulingIgnoredDuringExecution().stream()
            .anyMatch(t -> overHosts(t, model));
    boolean preferred =
        anti.getPreferredDuringSchedulingIgnoredDuringExecution().stream()
            .anyMatch(t -> overHosts(t.getPodAffinityTerm(), model));
    if (model.topology().hostsRequired() && !required) {
      var terms = new ArrayList<>(anti.getRequiredDuringSchedulingIgnoredDuringExecution());
      terms.add(term);
      anti.setRequiredDuringSchedulingIgnoredDuringExecution(terms);
    } else if (!required && !preferred) {
      var terms = new ArrayList<>(anti.getPreferredDuringSchedulingIgnoredDuringExecution());
      terms.add(new WeightedPodAffinityTerm(term, 100));
      anti.setPreferredDuringSchedulingIgnoredDuringExecution(terms);
    }
    merged.setPodAntiAffinity(anti);
    return merged;
  }

  /** Whether a pod affinity term is over hosts, for the cluster's pods. */
  private static boolean overHosts(PodAffinityTerm term, ClusterModel model) {
    return term != null
        && HOSTNAME.equals(term.getTopologyKey())
        && selectsNodes(term.getLabelSelector(), model);
  }

  /**
   * Whether a selector takes the cluster's node pods: labels they all carry, and no expressions
   * (which this does not evaluate).
   */
  private static boolean selectsNodes(LabelSelector selector, ClusterModel model) {
    if (selector == null
        || selector.getMatchLabels() == null
        || selector.getMatchLabels().isEmpty()
        || (selector.getMatchExpressions() != null && !selector.getMatchExpressions().isEmpty())) {
      return false;
    }
    return model.selectorLabels().entrySet().containsAll(selector.getMatchLabels().entrySet());
  }

  private static final String HOSTNAME = "kubernetes.io/hostname";

  private static List<Volume> volumes(ClusterModel model) {
    var volumes = new ArrayList<>(shared(model));
    if (model.tls()) {
      volumes.add(
          new VolumeBuilder()
              .withName(TLS_VOLUME)
              .withNewSecret()
              .withSecretName(model.tlsSecrets().nodeTls())
              .withDefaultMode(0440) // the key: readable by the node only
              .endSecret()
              .build());
    }
    if (model.authentication().usersFile()) {
      volumes.add(
          new VolumeBuilder()
              .withName(USERS_VOLUME)
              .withNewSecret()
              .withSecretName(model.usersSecretName())
              .withDefaultMode(0440)
              .endSecret()
              .build());
    }
    if (model.backups().storeSecret() != null) {
      volumes.add(credentials(STORE_VOLUME, model.backups().storeSecret()));
    }
    if (model.backups().restoreSecret() != null) {
      volumes.add(credentials(RESTORE_VOLUME, model.backups().restoreSecret()));
    }
    return volumes;
  }

  /**
   * An object store's credentials: the two keys of the user's Secret, nothing else of it. Optional:
   * a missing Secret or key fails the backup or restore with that reason, not the pod's start.
   */
  private static Volume credentials(String volume, String secret) {
    return new VolumeBuilder()
        .withName(volume)
        .withNewSecret()
        .withSecretName(secret)
        .withOptional(true)
        .withItems(
            new KeyToPathBuilder().withKey("access-key-id").withPath("access-key-id").build(),
            new KeyToPathBuilder()
                .withKey("secret-access-key")
                .withPath("secret-access-key")
                .build())
        .withDefaultMode(0440)
        .endSecret()
        .build();
  }

  /** The volumes of every node pod. */
  private static List<Volume> shared(ClusterModel model) {
    return List.of(
        new VolumeBuilder()
            .withName(CONFIG_VOLUME)
            .withNewConfigMap()
            .withName(model.configMapName())
            .endConfigMap()
            .build(),
        new VolumeBuilder()
            .withName(SECRET_VOLUME)
            .withNewSecret()
            .withSecretName(model.secretName())
            .withDefaultMode(0440) // owner root, group fsGroup: readable by the node only
            .endSecret()
            .build(),
        // Writable scratch despite the read-only root: the JVM and RocksDB's JNI loader use /tmp.
        new VolumeBuilder()
            .withName(TMP_VOLUME)
            .withNewEmptyDir()
            .withSizeLimit(new Quantity("256Mi"))
            .endEmptyDir()
            .build());
  }
}
