package dev.dht.operator.cluster;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.dht.operator.backup.BackupSpec;
import dev.dht.operator.backup.BootstrapSpec;
import dev.dht.operator.crd.KubernetesSchemas;
import dev.dht.operator.networking.NetworkPolicySpec;
import dev.dht.operator.settings.ClockSpec;
import dev.dht.operator.settings.CompatibilitySpec;
import dev.dht.operator.settings.MaintenanceSpec;
import dev.dht.operator.settings.RocksDbSpec;
import dev.dht.operator.settings.TopologySpec;
import dev.dht.operator.tls.TlsSpec;
import dev.dht.operator.users.Authentication;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.model.annotation.SpecReplicas;
import java.util.ArrayList;
import java.util.List;
import lombok.AccessLevel;
import lombok.AllArgsConstructor;
import lombok.Builder;
import lombok.Data;
import lombok.NoArgsConstructor;

/**
 * Desired state of a {@link DhtCluster}; nested defaults apply because each object defaults to {}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(
    value =
        "(has(self.tls) && has(self.tls.issuerRef))"
            + " == (has(oldSelf.tls) && has(oldSelf.tls.issuerRef))",
    message =
        "spec.tls.issuerRef is chosen when the cluster is created: a cluster cannot move"
            + " between the operator's CA and a cert-manager issuer")
@ValidationRule(
    value =
        "!has(self.replication) || !has(self.replication.defaultFrom)"
            + " || self.replication.defaultFrom <= self.replicas",
    message = "replication.defaultFrom must not exceed replicas")
@ValidationRule(
    value =
        "!has(self.replication) || !has(self.replication.defaultAck)"
            + " || self.replication.defaultAck <= (has(self.replication.defaultFrom)"
            + " ? self.replication.defaultFrom : self.replicas)",
    message = "replication.defaultAck must not exceed replication.defaultFrom (default: replicas)")
@ValidationRule(
    value =
        "has(self.bootstrap) == has(oldSelf.bootstrap)"
            + " && (!has(self.bootstrap) || self.bootstrap == oldSelf.bootstrap)",
    message = "spec.bootstrap is chosen when the cluster is created and cannot change")
@Data
@Builder(toBuilder = true)
@NoArgsConstructor
@AllArgsConstructor(access = AccessLevel.PRIVATE)
public class DhtClusterSpec {
  /**
   * The bound of a field the operator and the node read as a Java int: a larger one would make the
   * cluster's object unreadable to the operator.
   */
  static final double MAX_INT = Integer.MAX_VALUE;

  @SpecReplicas
  @Default("3")
  @Min(1)
  @JsonPropertyDescription(
      "Number of nodes, at least 1. Default: 3. A change grows or shrinks the cluster step by"
          + " step, moving the data (status.membership shows the step). It does not shrink below"
          + " the default from in force (status.membership.from): such a change waits until"
          + " defaultFrom is lowered. One change at a time: a change of replicas and of the"
          + " default ack/from made together take their steps one after the other (the"
          + " narrowing before a shrink, the widening after a growth).")
  @Builder.Default
  private Integer replicas = 3;

  @JsonPropertyDescription(
      "Node image. Default: the operator's node image (status.operatorDefaults.image). A change"
          + " restarts the nodes one at a time. The operator's policy (chart value policy.images)"
          + " may restrict it: an image it does not allow is not applied (condition Degraded,"
          + " reason ImageNotAllowed).")
  private String image;

  @Default("{}")
  @JsonPropertyDescription(
      "Consistency of the requests that do not say how many replicas to write/read (from) and"
          + " to wait for (ack). A change reaches the nodes without a restart, through the same"
          + " steps as a change of replicas (status.membership shows the step): writes go to the"
          + " replicas of both the current and the new default from, the new replicas are filled,"
          + " and only then do reads use them.")
  @Builder.Default
  private Replication replication = new Replication();

  @Default("{}")
  @JsonPropertyDescription(
      "Thread pools of each node; unset counts follow the node container's CPU. A change"
          + " restarts the nodes one at a time.")
  @Builder.Default
  private Threads threads = new Threads();

  @Default("{}")
  @JsonPropertyDescription(
      "Admission limits of each node. A change restarts the nodes one at a time.")
  @Builder.Default
  private Limits limits = new Limits();

  // no CRD default for the sections below: one would be written into every existing cluster's
  // spec and change its restart inputs (ClusterModel.inputs); an unset field keeps the node's own
  @JsonPropertyDescription(
      "Anti-entropy repair, tombstones and hints of each node; unset fields keep the node's"
          + " defaults. A change restarts the nodes one at a time.")
  private MaintenanceSpec maintenance;

  @JsonPropertyDescription(
      "How far the nodes' clocks may be apart. A change restarts the nodes one at a time.")
  private ClockSpec clock;

  @JsonPropertyDescription("Each node's storage engine. A change restarts the nodes one at a time.")
  private RocksDbSpec rocksdb;

  @JsonPropertyDescription(
      "Newer node-to-node protocols to turn off, to run next to nodes of an earlier version. A"
          + " change restarts the nodes one at a time.")
  private CompatibilitySpec compatibility;

  @Default("{}")
  @JsonPropertyDescription(
      "Persistent volume of each node (the StatefulSet's volume claim template). A larger size"
          + " expands every claim of the cluster, where their StorageClass allows it"
          + " (status.storage, condition StorageResized); volumes never shrink. The class cannot"
          + " change.")
  @ValidationRule(
      value =
          "has(self.storageClassName) == has(oldSelf.storageClassName)"
              + " && (!has(self.storageClassName) || self.storageClassName == oldSelf.storageClassName)",
      message = "storage.storageClassName cannot change after the cluster is created")
  @Builder.Default
  private Storage storage = new Storage();

  @SchemaFrom(type = KubernetesSchemas.ResourceRequirements.class)
  @JsonPropertyDescription(
      "CPU/memory requests and limits of each node container. Default: the operator's"
          + " (status.operatorDefaults.resources): requests cpu 250m and memory 512Mi, limit memory"
          + " 1Gi, no CPU limit. The heap is half the memory limit; the CPU limit, else the CPU"
          + " request, sets the default thread counts. A change restarts the nodes one at a"
          + " time.")
  private ResourceRequirements resources;

  @JsonPropertyDescription(
      "Extra JVM options of the nodes, appended after the operator's"
          + " (status.operatorDefaults.jvmOptions). A change restarts the nodes one at a time. The"
          + " operator's policy (chart value policy.jvmOptions) may restrict them: options it does"
          + " not allow are not applied (condition Degraded, reason JvmOptionNotAllowed).")
  @Builder.Default
  private List<String> jvmOptions = new ArrayList<>();

  @JsonPropertyDescription(
      "Where the node pods may run, copied into the StatefulSet's pod template. The operator"
          + " adds a preferred pod anti-affinity (weight 100) that keeps two nodes of the cluster"
          + " off one host, unless affinity.podAntiAffinity already uses the topology key"
          + " kubernetes.io/hostname. A change restarts the nodes one at a time.")
  private Scheduling scheduling;

  // no CRD default: the apiserver would write it into every existing cluster's spec
  @JsonPropertyDescription(
      "How the node pods spread over zones (a topology spread constraint on zoneKey) and hosts"
          + " (a preferred anti-affinity, or a required one). Unset: the defaults of its fields.")
  private TopologySpec topology;

  /** What happens to the volume claims of members a scale-down removed. */
  public enum DetachedClaims {
    /**
     * Kept, labelled dht.dev/detached=true; a later scale-up reuses them (streaming updates them).
     */
    Keep,
    /** Deleted once the scale-down is done. */
    Delete
  }

  @Default("Keep")
  @JsonPropertyDescription(
      "The PersistentVolumeClaims of members removed by a scale-down: Keep (labelled"
          + " dht.dev/detached=true; a later scale-up reuses them) or Delete (once the scale-down"
          + " is done). Default: Keep.")
  @Builder.Default
  private DetachedClaims detachedClaims = DetachedClaims.Keep;

  /** When the kubelet pulls the node image. */
  public enum PullPolicy {
    Always,
    IfNotPresent,
    Never
  }

  @JsonPropertyDescription(
      "Pull policy of the node image: Always, IfNotPresent or Never. Default: the operator's"
          + " (chart node.image.pullPolicy). A change does not restart the nodes; pods created"
          + " later use it.")
  private PullPolicy imagePullPolicy;

  @SchemaFrom(type = KubernetesSchemas.LocalObjectReference[].class)
  @JsonPropertyDescription(
      "Secrets (in the cluster's namespace) to pull the node image with. Default: the"
          + " operator's (chart node.imagePullSecrets). A change does not restart the nodes; pods"
          + " created later use it.")
  @Builder.Default
  private List<LocalObjectReference> imagePullSecrets = new ArrayList<>();

  /** Whether a change of the operator's own defaults restarts the nodes by itself. */
  public enum OperatorUpgrades {
    /**
     * The nodes keep the defaults they run (image, base JVM options, pod template) until the
     * cluster is annotated dht.dev/allow-restart=once; condition RestartRequired says so.
     */
    Manual,
    /** The operator's new defaults are rolled out at once (one node at a time). */
    Automatic
  }

  @Default("Manual")
  @JsonPropertyDescription(
      "When the operator's own defaults change (a new operator version: default node image, base"
          + " JVM options, default resources, pod template): Manual keeps the nodes as they are"
          + " (condition RestartRequired) until the cluster is annotated"
          + " dht.dev/allow-restart=once, Automatic restarts them at once, one at a time. Default:"
          + " Manual.")
  @Builder.Default
  private OperatorUpgrades operatorUpgrades = OperatorUpgrades.Manual;

  // no CRD default: the apiserver would write it into every existing cluster's spec, which would
  // change the restart inputs of them all (ClusterModel.inputs)
  @JsonPropertyDescription(
      "Which pods may reach the nodes. The operator keeps a NetworkPolicy named like the"
          + " DhtCluster on the node pods: the client port admits clientsFrom (default: every pod"
          + " of the DhtCluster's namespace), the peer port only the cluster's own node pods, the"
          + " admin port the operator's pods and the monitoring namespace the chart names."
          + " Unset: enabled, with the default clients.")
  private NetworkPolicySpec networkPolicy;

  // no CRD default: the operator decides an unset one (ClientAuthentication), and a CRD default
  // would be written into every existing cluster's spec
  @JsonPropertyDescription(
      "Whether the nodes demand credentials of their clients: required admits only the tokens"
          + " of the DhtUsers of this cluster, each within its ACLs and quota (401 without or"
          + " with a bad token, 403 outside the ACLs, 429 beyond the quota); none lets anyone who"
          + " reaches the client port do anything. Changes apply within seconds, without"
          + " restarts (except on a cluster made before DhtUsers existed: its first setting rolls"
          + " its pods once to mount the users file). Unset: required (none on a cluster made"
          + " before DhtUsers existed).")
  private Authentication authentication;

  @Default("{}")
  @JsonPropertyDescription(
      "TLS of the nodes' ports, with certificates from a CA the operator runs for the cluster"
          + " (or from a cert-manager issuer: tls.issuerRef); on unless turned off. The CA lives a year, the node certificate 90 days; both are"
          + " renewed 30 days before their end, and the annotation dht.dev/rotate-ca=<any new"
          + " value> rotates the CA at once. A rotation trusts the new CA next to the old one,"
          + " then re-issues the node certificate, then drops the old CA, each step a few minutes"
          + " after the last: the nodes re-read their files, nothing restarts.")
  @Builder.Default
  private TlsSpec tls = new TlsSpec();

  @JsonPropertyDescription(
      "Where the cluster's DhtBackups and DhtScheduledBackups go: an S3-compatible object store"
          + " and the nodes' upload bandwidth. The nodes re-read it at each backup: a change"
          + " needs no restart (adding or removing a credentials Secret restarts the nodes one at"
          + " a time, to mount it). Unset: the cluster cannot be backed up.")
  private BackupSpec backup;

  @JsonPropertyDescription(
      "What a new cluster starts with: unset, empty; backup, a complete backup restored into"
          + " this cluster's own placement (any replicas, any from). The cluster is Ready only"
          + " once every node loaded its share (status.restore). Immutable.")
  private BootstrapSpec bootstrap;

  /**
   * Default consistency of requests that do not say ack/from; reaches the nodes without a restart,
   * through the steps of a change of membership.
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @Data
  @Builder(toBuilder = true)
  @NoArgsConstructor
  @AllArgsConstructor(access = AccessLevel.PRIVATE)
  public static class Replication {
    @Min(1)
    @JsonPropertyDescription(
        "Replicas per key of a request that has no 'from', 1 to replicas. Default:"
            + " status.pinnedDefaultFrom, the default from the cluster started with (its replicas"
            + " then, unless defaultFrom was set), so that scaling does not change it. A change"
            + " takes the steps of a change of replicas: the wider (or narrower) replica sets are"
            + " filled before reads use them; status.membership.from is the one in force.")
    private Integer defaultFrom;

    @Min(1)
    @JsonPropertyDescription(
        "Acks a request that has no 'ack' waits for, 1 to defaultFrom. Default: floor(from/2)+1,"
            + " a majority; while defaultFrom is unset: status.pinnedDefaultAck, the default ack"
            + " the cluster started with. A change takes the same steps as one of defaultFrom;"
            + " status.membership.ack is the one in force.")
    private Integer defaultAck;
  }

  /** Node thread pools; a change restarts the pods. Unset: from the container's CPU. */
  @Data
  @Builder(toBuilder = true)
  @NoArgsConstructor
  @AllArgsConstructor(access = AccessLevel.PRIVATE)
  public static class Threads {
    @Min(1)
    @Max(MAX_INT)
    @JsonPropertyDescription(
        "Vert.x event loops of each node, at least 1. Default: one per whole core of the node"
            + " container's CPU limit, else of its CPU request, at least one (1 with the default"
            + " resources).")
    private Integer eventLoops;

    @Min(1)
    @Max(MAX_INT)
    @JsonPropertyDescription(
        "Threads of each node's bounded RocksDB worker pool, at least 1. Default: two per event"
            + " loop.")
    private Integer storageWorkers;
  }

  /**
   * Node admission limits; a change restarts the pods. Fields added after the first three have no
   * CRD default (the nodes' own applies): one would change every existing cluster's restart inputs.
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @Data
  @Builder(toBuilder = true)
  @NoArgsConstructor
  @AllArgsConstructor(access = AccessLevel.PRIVATE)
  public static class Limits {
    @Default("4096")
    @Min(1)
    @Max(MAX_INT)
    @JsonPropertyDescription(
        "Requests a node handles at once, at least 1; beyond that it answers 503. Default:"
            + " 4096.")
    @Builder.Default
    private Integer maxInflight = 4096;

    @Default("1000")
    @Min(1)
    @Max(MAX_INT)
    @JsonPropertyDescription(
        "Deadline of a request in milliseconds, at least 1; beyond that the node answers 504."
            + " Default: 1000.")
    @Builder.Default
    private Integer requestTimeoutMs = 1000;

    @Default("1048576")
    @Min(1)
    @Max(1 << 30)
    @JsonPropertyDescription(
        "Largest value a node accepts, in bytes, 1 to 1073741824 (1 GiB); beyond that it"
            + " answers 413. Default: 1048576 (1 MiB).")
    @Builder.Default
    private Integer maxValueBytes = 1048576;

    @Min(1)
    @Max(MAX_INT)
    @JsonPropertyDescription(
        "Longest key a node accepts, in bytes, at least 1; beyond that it answers 400. Default:"
            + " 1024. Sets --max-key-bytes.")
    private Integer maxKeyBytes;

    @Min(1)
    @Max(MAX_INT)
    @JsonPropertyDescription(
        "Milliseconds a client has to send a request's body; beyond that the node answers 408"
            + " and closes the connection. Default: 5000. Sets --body-timeout-ms.")
    private Integer bodyTimeoutMs;

    @Min(1)
    @Max(MAX_INT)
    @JsonPropertyDescription(
        "Seconds an idle keep-alive connection stays open. Default: 60. Sets --idle-timeout-s.")
    private Integer idleTimeoutSeconds;

    @Min(0)
    @JsonPropertyDescription(
        "Bytes of client request bodies a node holds at once; beyond that it answers 503. 0 or"
            + " unset: an eighth of the heap. Sets --max-body-bytes-inflight.")
    private Long maxBodyBytesInflight;

    @Min(1)
    @Max(MAX_INT)
    @JsonPropertyDescription(
        "Node-to-node batches a node handles at once, apart from clients; beyond that it answers"
            + " its peers 503. Default: 1024. Sets --max-internal-inflight.")
    private Integer maxInternalInflight;

    @Min(0)
    @JsonPropertyDescription(
        "Bytes of node-to-node batch bodies a node holds at once. 0 or unset: an eighth of the"
            + " heap. Sets --max-internal-body-bytes-inflight.")
    private Long maxInternalBodyBytesInflight;

    @Min(1)
    @Max(MAX_INT)
    @JsonPropertyDescription(
        "Replica operations a node queues or has in flight to one peer; beyond that they fail at"
            + " once (the write may still reach ack elsewhere, else 504). Default: 4096. Sets"
            + " --peer-max-pending-ops.")
    private Integer peerMaxPendingOps;

    @Min(0)
    @JsonPropertyDescription(
        "The same in bytes. 0 or unset: a sixteenth of the heap. Sets --peer-max-pending-bytes.")
    private Long peerMaxPendingBytes;
  }

  /** The per-node persistent volume. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @Data
  @Builder(toBuilder = true)
  @NoArgsConstructor
  @AllArgsConstructor(access = AccessLevel.PRIVATE)
  public static class Storage {
    @Default("1Gi")
    @io.fabric8.generator.annotation.Pattern(
        "^([0-9]+(\\.[0-9]+)?)(Ki|Mi|Gi|Ti|Pi|Ei|k|M|G|T|P|E)?$")
    @JsonPropertyDescription(
        "Size of each node's volume, a Kubernetes quantity such as 1Gi or 500Mi. Default: 1Gi."
            + " A larger one expands the claims (their StorageClass must allow expansion); a"
            + " smaller one shrinks nothing: after a refused expansion, set it back to the size"
            + " the claims hold.")
    @Builder.Default
    private String size = "1Gi";

    @JsonPropertyDescription(
        "Storage class of the volumes. Default: the Kubernetes cluster's default storage class."
            + " Immutable.")
    private String storageClassName;
  }
}
