package dev.dht.operator.cluster;

import com.fasterxml.jackson.annotation.JsonIgnore;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn.Type;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/** A replicated dht key-value cluster: the operator turns it into a StatefulSet and friends. */
@Group(DhtCluster.GROUP)
@Version(DhtCluster.VERSION)
@ShortNames("dht")
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
public class DhtCluster extends CustomResource<DhtClusterSpec, DhtClusterStatus>
    implements Namespaced {
  public static final String GROUP = "dht.dev";
  public static final String VERSION = "v1alpha1";

  /** Setting this annotation to "true" freezes every owned resource until it is removed. */
  public static final String PAUSE_ANNOTATION = "dht.dev/pause-reconciliation";

  @JsonIgnore
  public boolean isPaused() {
    var annotations = getMetadata().getAnnotations();
    return annotations != null && "true".equalsIgnoreCase(annotations.get(PAUSE_ANNOTATION));
  }
}
