package dev.dht.operator.cluster;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.dht.operator.crd.KubernetesSchemas;
import dev.dht.operator.scaling.Membership;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.model.annotation.LabelSelector;
import io.fabric8.kubernetes.model.annotation.StatusReplicas;
import java.util.ArrayList;
import java.util.List;

/** Observed state, rewritten on every reconcile. */
@JsonInclude(JsonInclude.Include.NON_NULL)
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
  private List<String> members = new ArrayList<>();

  @JsonPropertyDescription("How many members the nodes run with (see members).")
  private Integer memberCount;

  @JsonPropertyDescription(
      "Hash of the restart-needing settings every node pod runs with; unset while they differ.")
  private String configHash;

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
      "Default from the cluster started with; used while spec.replication.defaultFrom is unset,"
          + " so that scaling never changes the consistency of default requests.")
  private Integer pinnedDefaultFrom;

  @JsonPropertyDescription("Default ack the cluster started with (see pinnedDefaultFrom).")
  private Integer pinnedDefaultAck;

  @JsonPropertyDescription(
      "The membership published to the nodes, and the step of a change of size in progress.")
  private Membership membership;

  @JsonPropertyDescription(
      "Each node as last observed: pod readiness, config hash and image, and what the node"
          + " reports (membership epoch, defaults, hints, keys, SST bytes, stream and cleanup).")
  private List<ObservedNode> nodes = new ArrayList<>();

  public Integer getMemberCount() {
    return memberCount;
  }

  public void setMemberCount(Integer memberCount) {
    this.memberCount = memberCount;
  }

  public OperatorDefaults getOperatorDefaults() {
    return operatorDefaults;
  }

  public void setOperatorDefaults(OperatorDefaults operatorDefaults) {
    this.operatorDefaults = operatorDefaults;
  }

  public RollStatus getRoll() {
    return roll;
  }

  public void setRoll(RollStatus roll) {
    this.roll = roll;
  }

  public List<ObservedNode> getNodes() {
    return nodes;
  }

  public void setNodes(List<ObservedNode> nodes) {
    this.nodes = nodes;
  }

  @SchemaFrom(type = KubernetesSchemas.Condition[].class)
  @JsonPropertyDescription(
      "Conditions: Ready (every node Ready), Progressing (a rollout, roll or scale under way),"
          + " Degraded, ConfigApplied (every node runs the current settings), Paused"
          + " (dht.dev/pause-reconciliation), RestartRequired (new operator defaults wait for"
          + " dht.dev/allow-restart=once).")
  private List<Condition> conditions = new ArrayList<>();

  public Membership getMembership() {
    return membership;
  }

  public void setMembership(Membership membership) {
    this.membership = membership;
  }

  public Integer getPinnedDefaultFrom() {
    return pinnedDefaultFrom;
  }

  public void setPinnedDefaultFrom(Integer pinnedDefaultFrom) {
    this.pinnedDefaultFrom = pinnedDefaultFrom;
  }

  public Integer getPinnedDefaultAck() {
    return pinnedDefaultAck;
  }

  public void setPinnedDefaultAck(Integer pinnedDefaultAck) {
    this.pinnedDefaultAck = pinnedDefaultAck;
  }

  public Long getObservedGeneration() {
    return observedGeneration;
  }

  public void setObservedGeneration(Long observedGeneration) {
    this.observedGeneration = observedGeneration;
  }

  public Integer getReplicas() {
    return replicas;
  }

  public void setReplicas(Integer replicas) {
    this.replicas = replicas;
  }

  public Integer getReadyReplicas() {
    return readyReplicas;
  }

  public void setReadyReplicas(Integer readyReplicas) {
    this.readyReplicas = readyReplicas;
  }

  public String getSelector() {
    return selector;
  }

  public void setSelector(String selector) {
    this.selector = selector;
  }

  public List<String> getMembers() {
    return members;
  }

  public void setMembers(List<String> members) {
    this.members = members;
  }

  public String getConfigHash() {
    return configHash;
  }

  public void setConfigHash(String configHash) {
    this.configHash = configHash;
  }

  public Integer getDefaultAck() {
    return defaultAck;
  }

  public void setDefaultAck(Integer defaultAck) {
    this.defaultAck = defaultAck;
  }

  public Integer getDefaultFrom() {
    return defaultFrom;
  }

  public void setDefaultFrom(Integer defaultFrom) {
    this.defaultFrom = defaultFrom;
  }

  public List<Condition> getConditions() {
    return conditions;
  }

  public void setConditions(List<Condition> conditions) {
    this.conditions = conditions;
  }
}
