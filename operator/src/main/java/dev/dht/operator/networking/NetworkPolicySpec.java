package dev.dht.operator.networking;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.dht.operator.crd.KubernetesSchemas;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeer;
import java.util.List;
import lombok.AccessLevel;
import lombok.AllArgsConstructor;
import lombok.Builder;
import lombok.Data;
import lombok.NoArgsConstructor;

/**
 * {@code spec.networkPolicy} of a DhtCluster: whether the operator keeps the NetworkPolicy of its
 * node pods, and which clients it admits.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Data
@Builder(toBuilder = true)
@NoArgsConstructor
@AllArgsConstructor(access = AccessLevel.PRIVATE)
public class NetworkPolicySpec {

  @Default("true")
  @JsonPropertyDescription(
      "Whether the operator keeps the NetworkPolicy of the node pods (named like the"
          + " DhtCluster). false: it makes none, and deletes the one it made. Default: true.")
  @Builder.Default
  private Boolean enabled = true;

  @SchemaFrom(type = KubernetesSchemas.NetworkPolicyPeer[].class)
  // refused here rather than by the apiserver when the operator writes the policy, where only
  // the cluster's status would tell; the size bounds the rule's cost
  @Size(max = 100)
  @ValidationRule(
      value =
          "self.all(p, has(p.ipBlock) ? !has(p.podSelector) && !has(p.namespaceSelector)"
              + " : has(p.podSelector) || has(p.namespaceSelector))",
      message =
          "each entry of networkPolicy.clientsFrom names pods (podSelector, namespaceSelector)"
              + " or addresses (ipBlock), not both")
  @JsonPropertyDescription(
      "Who may reach the nodes' client port, as the from list of a NetworkPolicy rule (pods by"
          + " podSelector and namespaceSelector, addresses by ipBlock); it replaces the default,"
          + " every pod of the DhtCluster's namespace. An empty list admits no client. The peer"
          + " and admin ports keep their own rules.")
  private List<NetworkPolicyPeer> clientsFrom;

  /** Whether {@code spec} (null: the DhtCluster has no networkPolicy) asks for the policy. */
  public static boolean wanted(NetworkPolicySpec spec) {
    return spec == null || !Boolean.FALSE.equals(spec.getEnabled());
  }
}
