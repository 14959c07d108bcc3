package dev.dht.operator.cluster;

import static java.util.Objects.requireNonNullElse;

import dev.dht.contract.SettingsFile;
import dev.dht.operator.scaling.Membership;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.IntStream;

/**
 * What a {@link DhtCluster} should look like once every default is resolved: names, labels, node
 * settings, members and the config hash. Pure: the dependents build their objects from it.
 */
public record ClusterModel(
    String name,
    String namespace,
    long generation,
    int replicas,
    String image,
    int defaultAck,
    int defaultFrom,
    int eventLoops,
    int storageWorkers,
    int maxInflight,
    int requestTimeoutMs,
    int maxValueBytes,
    String storageSize,
    String storageClassName,
    ResourceRequirements resources,
    List<String> jvmOptions,
    Scheduling scheduling,
    Membership membership,
    OperatorDefaults defaults,
    String imagePullPolicy,
    List<LocalObjectReference> imagePullSecrets) {

  /** Key under which the reconciler hands the model to the dependents. */
  public static final String CONTEXT_KEY = ClusterModel.class.getName();

  public static final int PORT = 8080;
  public static final String DATA_DIR = "/data";
  public static final String CONFIG_DIR = "/etc/dht";
  public static final String SECRET_DIR = "/etc/dht-secret";
  public static final String MEMBERS_KEY = "members";
  public static final String SETTINGS_KEY = "settings.properties";
  public static final String SECRET_KEY = "secret";
  public static final String ALSO_ACCEPTED_SECRET_KEY = "also-accepted";
  public static final String CONFIG_HASH_ANNOTATION = "dht.dev/config-hash";
  public static final String MANAGED_BY = "dht-operator";
  public static final String MANAGED_BY_SELECTOR = "app.kubernetes.io/managed-by=" + MANAGED_BY;

  /**
   * JVM flags every node gets before the user's: RocksDB's JNI needs native access; the heap takes
   * half of the container memory because RocksDB caches and memtables live off-heap.
   */
  public static final List<String> BASE_JVM_OPTIONS =
      List.of(
          "--enable-native-access=ALL-UNNAMED",
          "-XX:MaxRAMPercentage=50",
          "-XX:+ExitOnOutOfMemoryError");

  /** The model with this operator's defaults, {@code defaultImage} as its default node image. */
  public static ClusterModel of(DhtCluster cluster, String defaultImage) {
    return of(cluster, OperatorDefaults.current(defaultImage));
  }

  /** The model with the given operator defaults (those the cluster's nodes may get). */
  public static ClusterModel of(DhtCluster cluster, OperatorDefaults defaults) {
    return of(cluster, defaults, ImagePull.DEFAULT);
  }

  /** As above, with the operator's image pull settings for clusters that set none. */
  public static ClusterModel of(DhtCluster cluster, OperatorDefaults defaults, ImagePull pull) {
    var spec = requireNonNullElse(cluster.getSpec(), new DhtClusterSpec());
    var replication = requireNonNullElse(spec.getReplication(), new DhtClusterSpec.Replication());
    var threads = requireNonNullElse(spec.getThreads(), new DhtClusterSpec.Threads());
    var limits = requireNonNullElse(spec.getLimits(), new DhtClusterSpec.Limits());
    var storage = requireNonNullElse(spec.getStorage(), new DhtClusterSpec.Storage());
    int replicas = requireNonNullElse(spec.getReplicas(), 3);
    // Unset defaults are pinned to the values the cluster started with (recorded in the status),
    // so that a scale never changes the consistency of every default request.
    var pinned = requireNonNullElse(cluster.getStatus(), new DhtClusterStatus());
    int from =
        requireNonNullElse(
            replication.getDefaultFrom(),
            requireNonNullElse(pinned.getPinnedDefaultFrom(), replicas));
    int ack =
        replication.getDefaultAck() != null
            ? replication.getDefaultAck()
            : replication.getDefaultFrom() == null && pinned.getPinnedDefaultAck() != null
                ? pinned.getPinnedDefaultAck()
                : from / 2 + 1;
    var resources = spec.getResources() != null ? spec.getResources() : defaults.getResources();
    // the counts follow the CPU from pod template v3 on: older clusters keep theirs until their
    // nodes may restart for this operator's defaults (UpgradeGate)
    var derived =
        defaults.getTemplateVersion() >= 3
            ? NodeThreads.forResources(resources)
            : NodeThreads.BEFORE_TEMPLATE_3;
    var jvm = new ArrayList<>(defaults.getJvmOptions());
    jvm.addAll(requireNonNullElse(spec.getJvmOptions(), List.of()));
    return new ClusterModel(
        cluster.getMetadata().getName(),
        cluster.getMetadata().getNamespace(),
        requireNonNullElse(cluster.getMetadata().getGeneration(), 0L),
        replicas,
        spec.getImage() == null || spec.getImage().isBlank()
            ? defaults.getImage()
            : spec.getImage(),
        ack,
        from,
        requireNonNullElse(threads.getEventLoops(), derived.eventLoops()),
        requireNonNullElse(threads.getStorageWorkers(), derived.storageWorkers()),
        requireNonNullElse(limits.getMaxInflight(), 4096),
        requireNonNullElse(limits.getRequestTimeoutMs(), 1000),
        requireNonNullElse(limits.getMaxValueBytes(), 1048576),
        requireNonNullElse(storage.getSize(), "1Gi"),
        storage.getStorageClassName(),
        resources,
        List.copyOf(jvm),
        spec.getScheduling(),
        membership(cluster.getStatus(), replicas),
        defaults,
        spec.getImagePullPolicy() != null ? spec.getImagePullPolicy().name() : pull.policy(),
        spec.getImagePullSecrets() != null && !spec.getImagePullSecrets().isEmpty()
            ? List.copyOf(spec.getImagePullSecrets())
            : pull.secrets().stream().map(LocalObjectReference::new).toList());
  }

  /**
   * The membership the nodes were last given (the status), or, for a new cluster, {@code replicas}
   * members at epoch 1.
   */
  private static Membership membership(DhtClusterStatus status, int replicas) {
    if (status != null && status.getMembership() != null) {
      return status.getMembership();
    }
    boolean running =
        status != null && status.getMembers() != null && !status.getMembers().isEmpty();
    return Membership.stable(1, running ? status.getMembers().size() : replicas);
  }

  /** The same cluster with another membership (a step of a change decided this reconcile). */
  public ClusterModel withMembership(Membership next) {
    return new ClusterModel(
        name,
        namespace,
        generation,
        replicas,
        image,
        defaultAck,
        defaultFrom,
        eventLoops,
        storageWorkers,
        maxInflight,
        requestTimeoutMs,
        maxValueBytes,
        storageSize,
        storageClassName,
        resources,
        jvmOptions,
        scheduling,
        next,
        defaults,
        imagePullPolicy,
        imagePullSecrets);
  }

  /** Pods the StatefulSet runs: the members, and the joining or leaving ones during a change. */
  public int pods() {
    return membership.pods();
  }

  public String statefulSetName() {
    return name;
  }

  public String clientServiceName() {
    return name;
  }

  public String peerServiceName() {
    return name + "-peers";
  }

  public String configMapName() {
    return name + "-config";
  }

  public String secretName() {
    return name + "-secret";
  }

  public String disruptionBudgetName() {
    return name;
  }

  /** Labels that identify this cluster's pods; never change them (StatefulSet selector). */
  public Map<String, String> selectorLabels() {
    return selectorLabels(name);
  }

  /** The labels that select the node pods of the DhtCluster {@code clusterName}. */
  public static Map<String, String> selectorLabels(String clusterName) {
    var labels = new LinkedHashMap<String, String>();
    labels.put("app.kubernetes.io/name", "dht");
    labels.put("app.kubernetes.io/instance", clusterName);
    return labels;
  }

  /** Labels of every owned object; managed-by lets the operator's informers watch only ours. */
  public Map<String, String> labels() {
    var labels = selectorLabels();
    labels.put("app.kubernetes.io/managed-by", MANAGED_BY);
    return labels;
  }

  /** The selector in string form, as the scale subresource wants it. */
  public String selector() {
    return String.join(
        ",",
        selectorLabels().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList());
  }

  private String peerHost(String podName) {
    return podName + "." + peerServiceName() + "." + namespace + ".svc";
  }

  /** URL of every node listed in the members file, by ordinal. */
  public List<String> members() {
    return urls(membership.nodes());
  }

  /** The URLs of the nodes of ordinals {@code 0..count-1}. */
  public List<String> urls(int count) {
    return IntStream.range(0, count)
        .mapToObj(i -> "http://" + peerHost(podName(i)) + ":" + PORT)
        .toList();
  }

  public String podName(int ordinal) {
    return name + "-" + ordinal;
  }

  /** The node's own URL, expanded by the kubelet from the POD_NAME variable. */
  public String selfUrlTemplate() {
    return "http://" + peerHost("$(POD_NAME)") + ":" + PORT;
  }

  /** The versioned members file (epoch, read ring, member states) of the current step. */
  public String membersFile() {
    return membership.file(urls(Math.max(membership.getMembers(), membership.getTarget())));
  }

  public String settingsFile() {
    return new SettingsFile(defaultAck, defaultFrom).write();
  }

  /** Hash of the ConfigMap's node files (membership and settings). */
  public String filesHash() {
    return sha256(membersFile() + "\u0000" + settingsFile()).substring(0, 16);
  }

  public String jvmOptionsEnv() {
    return String.join(" ", jvmOptions);
  }

  /**
   * Hash of everything that needs a node restart to take effect: the pods annotated with another
   * hash are restarted by the roller. Members and default ack/from are left out on purpose: the
   * nodes re-read them from the ConfigMap.
   */
  public String configHash() {
    var canonical = new StringBuilder();
    canonical.append("template=").append(defaults.getTemplateVersion()).append('\n');
    canonical.append("image=").append(image).append('\n');
    canonical.append("eventLoops=").append(eventLoops).append('\n');
    canonical.append("storageWorkers=").append(storageWorkers).append('\n');
    canonical.append("maxInflight=").append(maxInflight).append('\n');
    canonical.append("requestTimeoutMs=").append(requestTimeoutMs).append('\n');
    canonical.append("maxValueBytes=").append(maxValueBytes).append('\n');
    canonical.append("jvmOptions=").append(String.join("\u0000", jvmOptions)).append('\n');
    if (resources != null) {
      canonical.append("limits=").append(canonical(resources.getLimits())).append('\n');
      canonical.append("requests=").append(canonical(resources.getRequests())).append('\n');
    }
    if (scheduling != null) {
      canonical.append("scheduling=").append(Serialization.asJson(scheduling)).append('\n');
    }
    return sha256(canonical.toString()).substring(0, 16);
  }

  private static String canonical(Map<String, Quantity> quantities) {
    var sorted = new TreeMap<String, String>();
    if (quantities != null) {
      quantities.forEach((k, v) -> sorted.put(k, v == null ? "" : v.toString()));
    }
    return sorted.toString();
  }

  private static String sha256(String text) {
    try {
      var digest = MessageDigest.getInstance("SHA-256");
      return HexFormat.of().formatHex(digest.digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is a mandatory JDK algorithm", e);
    }
  }
}
