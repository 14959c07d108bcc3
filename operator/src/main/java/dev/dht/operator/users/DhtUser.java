package dev.dht.operator.users;

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

/**
 * A client of a DhtCluster (the model is Strimzi's KafkaUser): the operator keeps its token in a
 * Secret of the same name, and the cluster's nodes admit it with the ACLs and quota of its spec.
 */
@Group(DhtUser.GROUP)
@Version(DhtUser.VERSION)
@ShortNames("dhtuser")
@SchemaCustomizer(
    value = MergePatchCustomizer.class,
    input = "{\"description\": \"" + DhtUser.DESCRIPTION + "\"}")
@AdditionalPrinterColumn(name = "Cluster", jsonPath = ".spec.cluster", type = Type.STRING)
@AdditionalPrinterColumn(name = "Secret", jsonPath = ".status.secret", type = Type.STRING)
@AdditionalPrinterColumn(
    name = "Ready",
    jsonPath = ".status.conditions[?(@.type==\"Ready\")].status",
    type = Type.STRING)
@AdditionalPrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp", type = Type.DATE)
@ValidationRule(
    value = "self.metadata.name.matches('^[a-z0-9]([-a-z0-9]*[a-z0-9])?$')",
    message = "the name must be a DNS-1123 label: it names the user's Secret")
@ValidationRule(
    value = "size(self.metadata.name) <= 63",
    message = "the name must be at most 63 characters: it names the user's Secret")
public class DhtUser extends CustomResource<DhtUserSpec, DhtUserStatus> implements Namespaced {
  public static final String GROUP = "dht.dev";
  public static final String VERSION = "v1alpha1";

  /** The kind's description in the CRD: plain text, no double quotes or backslashes (JSON). */
  public static final String DESCRIPTION =
      "A client of a DhtCluster in the same namespace. The operator keeps its token in the"
          + " Secret <name>-token (key token) and gives the cluster's nodes its SHA-256 with the"
          + " user's ACLs and quota; clients send Authorization: Bearer <token>. Deleting the"
          + " user, or its Secret for a new token, revokes the old token within seconds.";

  @Override
  @JsonPropertyDescription("Who the user belongs to, what it may do, and how fast.")
  public DhtUserSpec getSpec() {
    return super.getSpec();
  }

  @Override
  @JsonPropertyDescription("Where the token is, and whether the nodes accept it.")
  public DhtUserStatus getStatus() {
    return super.getStatus();
  }

  /** The user's cluster, or null if the spec names none. */
  public String clusterName() {
    return getSpec() == null ? null : getSpec().getCluster();
  }
}
