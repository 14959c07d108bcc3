package dev.dht.operator.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.dht.operator.backup.RestoreState;
import dev.dht.operator.crd.KubernetesSchemas;
import dev.dht.operator.replacing.NodeReplacement;
import dev.dht.operator.scaling.Membership;
import dev.dht.operator.scaling.ZonesStatus;
import dev.dht.operator.tls.TlsStatus;
import dev.dht.operator.users.UsersStatus;
import dev.dht.operator.volumes.StorageStatus;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.model.annotation.LabelSelector;
import io.fabric8.kubernetes.model.annotation.StatusReplicas;
import java.util.ArrayList;
import java.util.List;
import lombok.AccessLevel;
import lombok.AllArgsConstructor;
import lombok.Builder;
import lombok.Data;
import lombok.NoArgsConstructor;

/** Observed state, rewritten on every reconcile. */
@JsonIgnoreProperties(ignoreUnknown = true) // a status of a newer operator (a roll back)
@JsonInclude(JsonInclude.Include.NON_NULL)
@Data
@Builder(toBuilder = true)
@NoArgsConstructor
@AllArgsConstructor(access = AccessLevel.PRIVATE)
public class DhtClusterStatus {
  @JsonPropertyDescription(
      "metadata.generation of the spec this status was computed for; it stays at the last one"
          + " while the cluster is paused or the reconcile failed.")
  private Long observedGeneration;

  @StatusReplicas
  @JsonPropertyDescription("Node pods that exist.")
  private Integer replicas;

  @JsonPropertyDescription("Node pods that pass their readiness probe.")
  private Integer readyReplicas;

  @LabelSelector
  @JsonPropertyDescription("Label selector of the node pods (scale subresource).")
  private String selector;

  @JsonPropertyDescription(
      "Node URLs of the membership every node runs (the last one they all reached).")
  @Builder.Default
  private List<String> members = new ArrayList<>();

  @JsonPropertyDescription("How many members the nodes run with (see members).")
  private Integer memberCount;

  @JsonPropertyDescription(
      "Revision every node pod was created from (see nodes[].revision); unset while they differ.")
  private String revision;

  @JsonPropertyDescription("Default ack every answering node serves; kept while they differ.")
  private Integer defaultAck;

  @JsonPropertyDescription("Default from every answering node serves; kept while they differ.")
  private Integer defaultFrom;

  @JsonPropertyDescription(
      "The operator defaults (default image, base JVM options, pod template) the nodes are given;"
          + " a newer operator's defaults wait for dht.dev/allow-restart=once unless"
          + " spec.operatorUpgrades is Automatic.")
  private OperatorDefaults operatorDefaults;

  @JsonPropertyDescription("The rolling restart of pods created with other settings, if any.")
  private RollStatus roll;

  @JsonPropertyDescription(
      "The replacement of a node on a new, empty volume that the annotation dht.dev/replace=<pod>"
          + " asks for: where it stands, or why it waits or is refused.")
  private NodeReplacement replacement;

  @JsonPropertyDescription("The last replacement of a node that completed.")
  private NodeReplacement lastReplacement;

  @JsonPropertyDescription(
      "Default from the cluster started with; used while spec.replication.defaultFrom is unset,"
          + " so that scaling never changes the consistency of default requests.")
  private Integer pinnedDefaultFrom;

  @JsonPropertyDescription("Default ack the cluster started with (see pinnedDefaultFrom).")
  private Integer pinnedDefaultAck;

  @JsonPropertyDescription(
      "How the nodes talk, chosen when the cluster was created and kept: Tls (TLS on every port,"
          + " clients on 8080, peers with certificates on 7070, admin on 9090) or Plain (plain"
          + " HTTP on 8080 for all; clusters made before TLS, or spec.tls.enabled false).")
  private Transport transport;

  @JsonPropertyDescription(
      "Client authentication: the mode in force, and the users file the nodes were given"
          + " (DhtUsers of this cluster). Unset on a cluster made before users existed and that"
          + " does not set spec.authentication.")
  private UsersStatus users;

  @JsonPropertyDescription(
      "The membership published to the nodes with the default ack/from in force, and the step"
          + " of a change of size or of the default ack/from in progress.")
  private Membership membership;

  @JsonPropertyDescription(
      "The zones the nodes place a key's replicas by (spec.topology.zoneKey of the members' pods'"
          + " Kubernetes nodes), and whether every key's replicas span them.")
  private ZonesStatus zones;

  @JsonPropertyDescription(
      "Each node as last observed: pod readiness, revision and image, and what the node"
          + " reports (membership epoch, defaults, hints, keys, SST bytes, stream and cleanup).")
  @Builder.Default
  private List<ObservedNode> nodes = new ArrayList<>();

  @JsonPropertyDescription(
      "The cluster's CA and node certificate (spec.tls): their fingerprints and ends, and the step"
          + " of a CA rotation under way. Unset while TLS is off.")
  private TlsStatus tls;

  @JsonPropertyDescription(
      "The backup the cluster was created from (spec.bootstrap.backup), resolved when it was"
          + " created, and how far its nodes got in loading it.")
  private RestoreState restore;

  @JsonPropertyDescription(
      "The node volumes against spec.storage.size: each claim's requested size, capacity and"
          + " phase, and the size of the StatefulSet's claim template.")
  private StorageStatus storage;

  @SchemaFrom(type = KubernetesSchemas.Condition[].class)
  @JsonPropertyDescription(
      "Conditions: Ready (every node Ready), Progressing (a rollout, roll, scale or node"
          + " replacement under way), Degraded, ConfigApplied (every node runs the current settings), Paused"
          + " (dht.dev/pause-reconciliation), RestartRequired (new operator defaults wait for"
          + " dht.dev/allow-restart=once), Restored (a cluster created from a backup: every node"
          + " loaded its share; it is not Ready before), BackupStore (spec.backup can be used),"
          + " StorageResized (every bound claim holds spec.storage.size; ExpansionRefused when its"
          + " StorageClass cannot expand).")
  @Builder.Default
  private List<Condition> conditions = new ArrayList<>();
}
