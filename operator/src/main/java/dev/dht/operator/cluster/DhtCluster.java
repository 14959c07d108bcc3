package dev.dht.operator.cluster;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn.Type;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer.MergePatchCustomizer;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;
import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;

/** A replicated dht key-value cluster: the operator turns it into a StatefulSet and friends. */
@Group(DhtCluster.GROUP)
@Version(DhtCluster.VERSION)
@ShortNames("dht")
@SchemaCustomizer(
    value = MergePatchCustomizer.class,
    input = "{\"description\": \"" + DhtCluster.DESCRIPTION + "\"}")
@AdditionalPrinterColumn(name = "Replicas", jsonPath = ".spec.replicas", type = Type.INTEGER)
@AdditionalPrinterColumn(name = "Ready", jsonPath = ".status.readyReplicas", type = Type.INTEGER)
@AdditionalPrinterColumn(name = "Members", jsonPath = ".status.memberCount", type = Type.INTEGER)
@AdditionalPrinterColumn(name = "Ack", jsonPath = ".status.defaultAck", type = Type.INTEGER)
@AdditionalPrinterColumn(name = "From", jsonPath = ".status.defaultFrom", type = Type.INTEGER)
@AdditionalPrinterColumn(
    name = "Status",
    jsonPath = ".status.conditions[?(@.type==\"Ready\")].reason",
    type = Type.STRING)
@AdditionalPrinterColumn(
    name = "Applied",
    jsonPath = ".status.conditions[?(@.type==\"ConfigApplied\")].status",
    type = Type.STRING)
@AdditionalPrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp", type = Type.DATE)
@ValidationRule(
    value = "self.metadata.name.matches('^[a-z]([-a-z0-9]*[a-z0-9])?$')",
    message =
        "the name must be a DNS-1035 label (lower-case letters, digits and '-', starting with a"
            + " letter): it names Services and pods")
@ValidationRule(
    value = "size(self.metadata.name) <= " + DhtCluster.MAX_NAME,
    message =
        "the name must be at most "
            + DhtCluster.MAX_NAME
            + " characters, so that every name derived from it fits in 63 (pod <name>-<ordinal>,"
            + " Service <name>-peers, the StatefulSet's revision label <name>-<10 characters>)")
public class DhtCluster extends CustomResource<DhtClusterSpec, DhtClusterStatus>
    implements Namespaced {
  public static final String GROUP = "dht.dev";
  public static final String VERSION = "v1alpha1";

  /**
   * The kind's description in the CRD ({@code kubectl explain dht}), set by the
   * {@code @SchemaCustomizer} above: plain text, no double quotes or backslashes (JSON).
   */
  public static final String DESCRIPTION =
      "A replicated dht key-value store. The operator runs it as a StatefulSet of nodes behind a"
          + " Service of the same name, scales it by moving data before reads switch over,"
          + " restarts one safe pod at a time and reports in the status what the nodes actually"
          + " run.";

  /** The longest name: the StatefulSet's controller-revision-hash label adds 11 characters. */
  public static final int MAX_NAME = 52;

  /** Setting this annotation to "true" freezes every owned resource until it is removed. */
  public static final String PAUSE_ANNOTATION = "dht.dev/pause-reconciliation";

  /**
   * Pods (comma-separated names) gone for good among those a shrink removes: the shrink does not
   * wait for them, and their keys are streamed from the other replicas.
   */
  public static final String LOST_ANNOTATION = "dht.dev/lost";

  /**
   * A restart of every node asked for (e.g. by {@code kubectl dht restart}): a new value makes the
   * roller restart the pods, one at a time, as for a setting that needs it.
   */
  public static final String RESTARTED_AT_ANNOTATION = "dht.dev/restartedAt";

  @Override
  @JsonPropertyDescription(
      "Desired state of the cluster: size, node image and settings, storage, scheduling. A"
          + " field's description says whether a change of it reaches the nodes at once, restarts"
          + " them one at a time, or is refused.")
  public DhtClusterSpec getSpec() {
    return super.getSpec();
  }

  @Override
  @JsonPropertyDescription(
      "Observed state, written by the operator: pods, membership, what each node reports,"
          + " conditions.")
  public DhtClusterStatus getStatus() {
    return super.getStatus();
  }

  /**
   * The ordinals of this cluster's pods that {@link #LOST_ANNOTATION} names; others are ignored.
   */
  @JsonIgnore
  public Set<Integer> lostOrdinals() {
    var annotations = getMetadata().getAnnotations();
    String value = annotations == null ? null : annotations.get(LOST_ANNOTATION);
    if (value == null) {
      return Set.of();
    }
    String prefix = getMetadata().getName() + "-";
    return Arrays.stream(value.split(","))
        .map(String::strip)
        .filter(
            pod -> pod.startsWith(prefix) && pod.substring(prefix.length()).matches("[0-9]{1,4}"))
        .map(pod -> Integer.parseInt(pod.substring(prefix.length())))
        .collect(Collectors.toUnmodifiableSet());
  }

  @JsonIgnore
  public boolean isPaused() {
    var annotations = getMetadata().getAnnotations();
    return annotations != null && "true".equalsIgnoreCase(annotations.get(PAUSE_ANNOTATION));
  }
}
