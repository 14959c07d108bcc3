package dev.dht.operator.cluster;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.dht.operator.crd.KubernetesSchemas;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.TopologySpreadConstraint;
import java.util.List;
import java.util.Map;
import lombok.AccessLevel;
import lombok.AllArgsConstructor;
import lombok.Builder;
import lombok.Data;
import lombok.NoArgsConstructor;

/** Where node pods may run; copied verbatim into the pod template. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Data
@Builder(toBuilder = true)
@NoArgsConstructor
@AllArgsConstructor(access = AccessLevel.PRIVATE)
public class Scheduling {
  @SchemaFrom(type = KubernetesSchemas.Affinity.class)
  @JsonPropertyDescription(
      "Node affinity, pod affinity and pod anti-affinity of the pods, as in a pod spec.")
  private Affinity affinity;

  @SchemaFrom(type = KubernetesSchemas.Toleration[].class)
  @JsonPropertyDescription("Taints the pods tolerate, as in a pod spec.")
  private List<Toleration> tolerations;

  @JsonPropertyDescription(
      "Node labels (key: value) a node must have for the pods to run on it, as in a pod spec.")
  private Map<String, String> nodeSelector;

  @SchemaFrom(type = KubernetesSchemas.TopologySpreadConstraint[].class)
  @JsonPropertyDescription(
      "How the pods spread over topology domains such as hosts or zones, as in a pod spec.")
  private List<TopologySpreadConstraint> topologySpreadConstraints;
}
