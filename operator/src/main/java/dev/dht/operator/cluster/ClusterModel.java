package dev.dht.operator.cluster;

import static java.util.Objects.requireNonNullElse;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dht.contract.MembersFile;
import dev.dht.operator.backup.RestoreState;
import dev.dht.operator.rolling.DesiredRevision;
import dev.dht.operator.rolling.PodRevision;
import dev.dht.operator.scaling.Membership;
import dev.dht.operator.settings.TopologySpec;
import dev.dht.operator.tls.SecretNames;
import dev.dht.operator.users.UsersFile;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * What a {@link DhtCluster} should look like once every default is resolved: names, labels, node
 * settings, members and the inputs of the pods' revision. Pure: the dependents build their objects
 * from it.
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
    List<String> settingFlags,
    String storageSize,
    String storageClassName,
    ResourceRequirements resources,
    List<String> jvmOptions,
    Scheduling scheduling,
    TopologySpec topology,
    Membership membership,
    OperatorDefaults defaults,
    String imagePullPolicy,
    List<LocalObjectReference> imagePullSecrets,
    Transport transport,
    ClientAuthentication authentication,
    BackupWiring backups,
    String inputs) {

  /** Key under which the reconciler hands the model to the dependents. */
  public static final String CONTEXT_KEY = ClusterModel.class.getName();

  public static final int PORT = 8080;
  public static final String DATA_DIR = "/data";
  public static final String CONFIG_DIR = "/etc/dht";
  public static final String SECRET_DIR = "/etc/dht-secret";
  public static final String USERS_DIR = "/etc/dht-users";
  public static final String USERS_KEY = UsersFile.KEY;
  public static final String MEMBERS_KEY = "members";
  public static final String SECRET_KEY = "secret";
  public static final String ALSO_ACCEPTED_SECRET_KEY = "also-accepted";

  /** The pod template's revision ({@link PodRevision}): a pod of another one may restart. */
  public static final String REVISION_ANNOTATION = "dht.dev/revision";

  /** The single hash that operators before revisions annotated pods with. */
  public static final String OLDER_CONFIG_HASH_ANNOTATION = "dht.dev/config-hash";

  /**
   * Spec fields that never need a node restart, left out of the inputs: the nodes re-read the
   * members file, which carries the replication defaults; storage shapes only new claims; pull
   * settings matter only when pulling; the rest is the operator's.
   */
  static final List<String> NOT_RESTART_INPUTS =
      List.of(
          "replicas",
          "replication",
          "storage",
          "detachedClaims",
          "imagePullPolicy",
          "imagePullSecrets",
          "operatorUpgrades",
          // a NetworkPolicy is applied as it is, no node restarts for it
          "networkPolicy",
          // what TLS changes in a pod (mounts, flags) is in the rendered template, hashed apart;
          // here the new field's default would restart every existing cluster's nodes
          "tls",
          // the mode is in the users file, re-read; the file's mount is in the template
          "authentication",
          // the store and restore files are re-read; their flags and mounts are in the template
          "backup",
          "bootstrap");

  /** Spec sections of node settings whose unset fields keep the nodes' defaults. */
  static final List<String> SETTING_SECTIONS =
      List.of("maintenance", "clock", "rocksdb", "compatibility", "topology");

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
    var derived = NodeThreads.forResources(resources);
    var jvm = new ArrayList<>(defaults.getJvmOptions());
    jvm.addAll(requireNonNullElse(spec.getJvmOptions(), List.of()));
    var clusterPull = pull.forCluster(spec);
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
        NodeSettingFlags.of(spec),
        requireNonNullElse(storage.getSize(), "1Gi"),
        storage.getStorageClassName(),
        resources,
        List.copyOf(jvm),
        spec.getScheduling(),
        requireNonNullElse(spec.getTopology(), new TopologySpec()),
        membership(cluster.getStatus(), replicas, new MembersFile.Replication(ack, from)),
        defaults,
        clusterPull.policy(),
        clusterPull.secretReferences(),
        Transport.decide(wantsTls(spec), cluster.getStatus()),
        ClientAuthentication.decide(spec.getAuthentication(), cluster.getStatus()),
        BackupWiring.of(
            spec.getBackup(),
            spec.getBootstrap() != null && spec.getBootstrap().getBackup() != null,
            pinned.getRestore(),
            cluster.getMetadata().getNamespace(),
            cluster.getMetadata().getName()),
        inputs(spec, defaults, restartedAt(cluster)));
  }

  private static String restartedAt(DhtCluster cluster) {
    var annotations = cluster.getMetadata().getAnnotations();
    return annotations == null ? null : annotations.get(DhtCluster.RESTARTED_AT_ANNOTATION);
  }

  /** Whether the spec asks for TLS (the default). */
  static boolean wantsTls(DhtClusterSpec spec) {
    return spec.getTls() == null || spec.getTls().on();
  }

  /** The ports of the nodes, by role. */
  public NodePorts ports() {
    return transport.ports();
  }

  /** Whether the nodes serve TLS and peers authenticate with certificates. */
  public boolean tls() {
    return transport.tls();
  }

  /** The Secret with the nodes' users file ({@link ClientAuthentication}). */
  public String usersSecretName() {
    return UsersFile.secretName(name);
  }

  /**
   * Hash of what a node restart applies, as the user and the accepted operator defaults give it
   * (not as rendered): the spec but {@link #NOT_RESTART_INPUTS}, the defaults but the template, and
   * the restart asked for ({@link DhtCluster#RESTARTED_AT_ANNOTATION}; none: the hash is as before
   * it existed).
   */
  static String inputs(DhtClusterSpec spec, OperatorDefaults defaults, String restartedAt) {
    var inputs = CanonicalJson.tree(spec);
    inputs.remove(NOT_RESTART_INPUTS);
    if (inputs.get("topology") instanceof ObjectNode topology) {
      topology.remove(TopologySpec.NOT_RESTART_FIELDS); // in the members file, re-read
    }
    // a section of node settings that sets nothing is no setting: {} restarts nothing
    for (String section : SETTING_SECTIONS) {
      if (inputs.path(section).isEmpty()) {
        inputs.remove(section);
      }
    }
    var accepted = CanonicalJson.tree(defaults);
    accepted.remove("template");
    inputs.set("operatorDefaults", accepted);
    if (restartedAt != null) {
      inputs.put("restartedAt", restartedAt);
    }
    return CanonicalJson.hash(inputs);
  }

  /**
   * The membership the nodes were last given (the status), or, for a new cluster, {@code replicas}
   * members at epoch 1; with the {@code wanted} ack/from where the status records none (an older
   * operator gave them to the nodes at once, so they are in force).
   */
  private static Membership membership(
      DhtClusterStatus status, int replicas, MembersFile.Replication wanted) {
    if (status != null && status.getMembership() != null) {
      return status.getMembership().orReplication(wanted);
    }
    boolean running =
        status != null && status.getMembers() != null && !status.getMembers().isEmpty();
    return Membership.stable(1, running ? status.getMembers().size() : replicas, wanted);
  }

  /** The same cluster with another membership (a step of a change decided this reconcile). */
  public ClusterModel withMembership(Membership next) {
    return with(next, backups);
  }

  /** This model with the restore source the reconciler resolved (before the status records it). */
  public ClusterModel withRestore(RestoreState restore) {
    return with(membership, backups.withRestore(restore));
  }

  private ClusterModel with(Membership membership, BackupWiring backups) {
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
        settingFlags,
        storageSize,
        storageClassName,
        resources,
        jvmOptions,
        scheduling,
        topology,
        membership,
        defaults,
        imagePullPolicy,
        imagePullSecrets,
        transport,
        authentication,
        backups,
        inputs);
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
    return AdminAccess.secretName(name);
  }

  /** The Secrets of the cluster's CA and certificates (spec.tls); the nodes mount nodeTls. */
  public SecretNames tlsSecrets() {
    return SecretNames.of(name);
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

  /** The default ack/from wanted: the spec's, else the pinned ones (those in force: membership). */
  public MembersFile.Replication replication() {
    return new MembersFile.Replication(defaultAck, defaultFrom);
  }

  /**
   * The versioned members file (epoch, default ack/from, read ring, member states) of the current
   * step.
   */
  public String membersFile() {
    return membership.file(urls(Math.max(membership.getMembers(), membership.getTarget())));
  }

  /** Hash of the ConfigMap's node files (the members file, and the backup files if any). */
  public String filesHash() {
    var files = new StringBuilder(membersFile());
    backups
        .files()
        .forEach((key, text) -> files.append('\n').append(key).append('\n').append(text));
    return PodRevision.hash(files.toString(), 16);
  }

  public String jvmOptionsEnv() {
    return String.join(" ", jvmOptions);
  }

  /** The revision node pods should run, and whether this operator's template is accepted. */
  public DesiredRevision desiredRevision() {
    return new DesiredRevision(
        NodePodTemplate.revision(this), NodePodTemplate.FINGERPRINT.equals(defaults.getTemplate()));
  }
}
