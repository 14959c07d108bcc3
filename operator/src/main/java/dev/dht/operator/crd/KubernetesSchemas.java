package dev.dht.operator.crd;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.List;
import java.util.Map;

/**
 * Schema-only copies of the Kubernetes API types our custom resources embed, with a description on
 * every field. Fabric8's model classes carry none, so the CRDs generated from them left {@code
 * kubectl explain dht.spec.scheduling.affinity...} blank. A field of a Kubernetes type names its
 * copy here with {@code @SchemaFrom(type = ...)}: the CRD schema is generated from the copy, the
 * Java field keeps Fabric8's type. The copies have the same JSON properties, of the same types, as
 * Fabric8's classes ({@code KubernetesSchemasTest} checks it, so that a Fabric8 upgrade that adds a
 * field fails the build instead of having the apiserver prune that field); the descriptions are
 * shortened from the Kubernetes API reference. Never instantiated.
 */
public final class KubernetesSchemas {
  private KubernetesSchemas() {}

  /** {@code io.fabric8.kubernetes.api.model.ResourceRequirements}. */
  public static class ResourceRequirements {
    @JsonPropertyDescription(
        "Names of resources, defined in the pod's resourceClaims, that this container uses"
            + " (dynamic resource allocation).")
    public List<ResourceClaim> claims;

    @JsonPropertyDescription(
        "The most of each compute resource (cpu, memory, ...) the container may use, as"
            + " Kubernetes quantities, e.g. cpu: 500m, memory: 1Gi.")
    public Map<String, Quantity> limits;

    @JsonPropertyDescription(
        "The compute resources (cpu, memory, ...) the scheduler reserves for the container, as"
            + " Kubernetes quantities; an unset request defaults to the limit, if set.")
    public Map<String, Quantity> requests;
  }

  /** {@code io.fabric8.kubernetes.api.model.ResourceClaim}. */
  public static class ResourceClaim {
    @JsonPropertyDescription("Name of an entry of the pod's spec.resourceClaims.")
    public String name;

    @JsonPropertyDescription(
        "The request of that claim to use; empty: the whole claim is made available.")
    public String request;
  }

  /** {@code io.fabric8.kubernetes.api.model.LocalObjectReference}. */
  public static class LocalObjectReference {
    @JsonPropertyDescription("Name of the object (here: a Secret) in the same namespace.")
    public String name;
  }

  /** {@code io.fabric8.kubernetes.api.model.Condition}. */
  public static class Condition {
    @JsonPropertyDescription(
        "When the condition last changed from one status to another (RFC 3339 timestamp).")
    public String lastTransitionTime;

    @JsonPropertyDescription("Human-readable details of the transition.")
    public String message;

    @JsonPropertyDescription("metadata.generation of the resource that the condition was set for.")
    public Long observedGeneration;

    @JsonPropertyDescription("Machine-readable reason of the last transition, in CamelCase.")
    public String reason;

    @JsonPropertyDescription("True, False or Unknown.")
    public String status;

    @JsonPropertyDescription("Type of the condition, in CamelCase, e.g. Ready.")
    public String type;
  }

  /** {@code io.fabric8.kubernetes.api.model.Toleration}. */
  public static class Toleration {
    @JsonPropertyDescription(
        "Taint effect to match: NoSchedule, PreferNoSchedule or NoExecute; empty: all effects.")
    public String effect;

    @JsonPropertyDescription("Taint key to match; empty (with operator Exists): every taint.")
    public String key;

    @JsonPropertyDescription("Exists (any value) or Equal (the value below); default: Equal.")
    public String operator;

    @JsonPropertyDescription(
        "With effect NoExecute: seconds the pod stays bound to a node after the taint is added;"
            + " unset: forever.")
    public Long tolerationSeconds;

    @JsonPropertyDescription("Taint value to match with operator Equal; empty with Exists.")
    public String value;
  }

  /** {@code io.fabric8.kubernetes.api.model.TopologySpreadConstraint}. */
  public static class TopologySpreadConstraint {
    @JsonPropertyDescription(
        "The pods counted in each topology domain: those this label selector matches.")
    public LabelSelector labelSelector;

    @JsonPropertyDescription(
        "Pod label keys whose values, taken from the incoming pod, are added to labelSelector.")
    public List<String> matchLabelKeys;

    @JsonPropertyDescription(
        "How unevenly the matching pods may be spread: the largest allowed difference between"
            + " the number in a domain and the smallest number in any eligible domain; at least"
            + " 1.")
    public Integer maxSkew;

    @JsonPropertyDescription(
        "Minimum number of eligible domains; fewer count as a global minimum of 0. Only with"
            + " whenUnsatisfiable DoNotSchedule.")
    public Integer minDomains;

    @JsonPropertyDescription(
        "Honor (default) or Ignore: whether the pod's nodeAffinity and nodeSelector limit the"
            + " nodes counted in the skew.")
    public String nodeAffinityPolicy;

    @JsonPropertyDescription(
        "Honor or Ignore (default): whether nodes with taints the pod does not tolerate are"
            + " left out of the skew.")
    public String nodeTaintsPolicy;

    @JsonPropertyDescription(
        "Node label whose value defines a domain, e.g. kubernetes.io/hostname or"
            + " topology.kubernetes.io/zone.")
    public String topologyKey;

    @JsonPropertyDescription(
        "DoNotSchedule (keep the pod pending) or ScheduleAnyway (schedule it, preferring nodes"
            + " that reduce the skew) when the constraint cannot be met.")
    public String whenUnsatisfiable;
  }

  /** {@code io.fabric8.kubernetes.api.model.LabelSelector}. */
  public static class LabelSelector {
    @JsonPropertyDescription("Label selector requirements; all must hold (AND).")
    public List<LabelSelectorRequirement> matchExpressions;

    @JsonPropertyDescription(
        "Labels the object must have, key: value; each is a requirement ANDed with"
            + " matchExpressions.")
    public Map<String, String> matchLabels;
  }

  /** {@code io.fabric8.kubernetes.api.model.LabelSelectorRequirement}. */
  public static class LabelSelectorRequirement {
    @JsonPropertyDescription("The label key the requirement applies to.")
    public String key;

    @JsonPropertyDescription("In, NotIn, Exists or DoesNotExist.")
    public String operator;

    @JsonPropertyDescription(
        "Label values: non-empty for In and NotIn, empty for Exists and DoesNotExist.")
    public List<String> values;
  }

  /** {@code io.fabric8.kubernetes.api.model.Affinity}. */
  public static class Affinity {
    @JsonPropertyDescription("Rules on the labels and fields of the nodes the pod may run on.")
    public NodeAffinity nodeAffinity;

    @JsonPropertyDescription(
        "Rules to run the pod in the same topology domain (e.g. host, zone) as other pods.")
    public PodAffinity podAffinity;

    @JsonPropertyDescription(
        "Rules to keep the pod out of the topology domains (e.g. hosts, zones) of other pods.")
    public PodAntiAffinity podAntiAffinity;
  }

  /** {@code io.fabric8.kubernetes.api.model.NodeAffinity}. */
  public static class NodeAffinity {
    @JsonPropertyDescription(
        "Node terms the scheduler prefers: a node scores the weights of the terms it matches;"
            + " the pod may still run on a node that matches none.")
    public List<PreferredSchedulingTerm> preferredDuringSchedulingIgnoredDuringExecution;

    @JsonPropertyDescription(
        "Node terms the pod's node must match, or the pod is not scheduled; a running pod is not"
            + " evicted when its node stops matching.")
    public NodeSelector requiredDuringSchedulingIgnoredDuringExecution;
  }

  /** {@code io.fabric8.kubernetes.api.model.PreferredSchedulingTerm}. */
  public static class PreferredSchedulingTerm {
    @JsonPropertyDescription("The node selector term a node should match.")
    public NodeSelectorTerm preference;

    @JsonPropertyDescription("Weight of the term, 1-100.")
    public Integer weight;
  }

  /** {@code io.fabric8.kubernetes.api.model.NodeSelector}. */
  public static class NodeSelector {
    @JsonPropertyDescription("Node selector terms; a node must match at least one (OR).")
    public List<NodeSelectorTerm> nodeSelectorTerms;
  }

  /** {@code io.fabric8.kubernetes.api.model.NodeSelectorTerm}. */
  public static class NodeSelectorTerm {
    @JsonPropertyDescription("Requirements on node labels; all must hold (AND).")
    public List<NodeSelectorRequirement> matchExpressions;

    @JsonPropertyDescription("Requirements on node fields (metadata.name); all must hold (AND).")
    public List<NodeSelectorRequirement> matchFields;
  }

  /** {@code io.fabric8.kubernetes.api.model.NodeSelectorRequirement}. */
  public static class NodeSelectorRequirement {
    @JsonPropertyDescription("The label key (or field name) the requirement applies to.")
    public String key;

    @JsonPropertyDescription("In, NotIn, Exists, DoesNotExist, Gt or Lt.")
    public String operator;

    @JsonPropertyDescription(
        "Values: non-empty for In and NotIn, empty for Exists and DoesNotExist, one integer for"
            + " Gt and Lt.")
    public List<String> values;
  }

  /** {@code io.fabric8.kubernetes.api.model.PodAffinity}. */
  public static class PodAffinity {
    @JsonPropertyDescription(
        "Terms the scheduler prefers: a node scores the weights of the terms it satisfies.")
    public List<WeightedPodAffinityTerm> preferredDuringSchedulingIgnoredDuringExecution;

    @JsonPropertyDescription(
        "Terms that must all hold, or the pod is not scheduled; a running pod is not evicted when"
            + " they stop holding.")
    public List<PodAffinityTerm> requiredDuringSchedulingIgnoredDuringExecution;
  }

  /** {@code io.fabric8.kubernetes.api.model.PodAntiAffinity}. */
  public static class PodAntiAffinity {
    @JsonPropertyDescription(
        "Terms the scheduler prefers to avoid: a node scores the weights of the terms it does not"
            + " violate.")
    public List<WeightedPodAffinityTerm> preferredDuringSchedulingIgnoredDuringExecution;

    @JsonPropertyDescription(
        "Terms that must all hold (no matching pod in the domain), or the pod is not scheduled; a"
            + " running pod is not evicted when they stop holding.")
    public List<PodAffinityTerm> requiredDuringSchedulingIgnoredDuringExecution;
  }

  /** {@code io.fabric8.kubernetes.api.model.WeightedPodAffinityTerm}. */
  public static class WeightedPodAffinityTerm {
    @JsonPropertyDescription("The pod affinity term.")
    public PodAffinityTerm podAffinityTerm;

    @JsonPropertyDescription("Weight of the term, 1-100.")
    public Integer weight;
  }

  /** {@code io.fabric8.kubernetes.api.model.PodAffinityTerm}. */
  public static class PodAffinityTerm {
    @JsonPropertyDescription("The pods this term is about: those this label selector matches.")
    public LabelSelector labelSelector;

    @JsonPropertyDescription(
        "Pod label keys whose values, taken from the incoming pod, are added to labelSelector as"
            + " key In (value).")
    public List<String> matchLabelKeys;

    @JsonPropertyDescription(
        "Pod label keys whose values, taken from the incoming pod, are added to labelSelector as"
            + " key NotIn (value).")
    public List<String> mismatchLabelKeys;

    @JsonPropertyDescription(
        "Namespaces whose pods the term considers, by label, in addition to namespaces; empty"
            + " ({}): every namespace.")
    public LabelSelector namespaceSelector;

    @JsonPropertyDescription(
        "Namespaces whose pods the term considers; with namespaceSelector unset and this empty:"
            + " the pod's own namespace.")
    public List<String> namespaces;

    @JsonPropertyDescription(
        "Node label whose value defines the domain the pods must share (or not share), e.g."
            + " kubernetes.io/hostname; required.")
    public String topologyKey;
  }

  /** {@code io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeer}. */
  public static class NetworkPolicyPeer {
    @JsonPropertyDescription(
        "Addresses (CIDR) allowed; meant for traffic from outside the Kubernetes cluster, since"
            + " pod addresses change. Not together with podSelector or namespaceSelector.")
    public IPBlock ipBlock;

    @JsonPropertyDescription(
        "Namespaces (by their labels, e.g. kubernetes.io/metadata.name) whose pods are allowed;"
            + " {} selects every namespace. With podSelector: only the pods it selects there.")
    public LabelSelector namespaceSelector;

    @JsonPropertyDescription(
        "Pods (by their labels) allowed: in the DhtCluster's namespace, or in the namespaces of"
            + " namespaceSelector if set; {} selects every pod.")
    public LabelSelector podSelector;
  }

  /** {@code io.fabric8.kubernetes.api.model.networking.v1.IPBlock}. */
  public static class IPBlock {
    @JsonPropertyDescription("Addresses allowed, in CIDR notation, e.g. 192.168.1.0/24.")
    public String cidr;

    @JsonPropertyDescription("Addresses within cidr that are not allowed, in CIDR notation.")
    public List<String> except;
  }
}
