package dev.dht.operator.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.dht.operator.crd.KubernetesSchemas;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import lombok.Data;
import lombok.NoArgsConstructor;

/**
 * What the operator, not the DhtCluster, puts into a node pod: the default image, the base JVM
 * options, default resources, and the shape of the pod template (a fingerprint of it). A cluster
 * keeps the defaults it was given ({@code status.operatorDefaults}) until a restart for new ones is
 * allowed ({@link UpgradeGate}).
 */
@Data
@NoArgsConstructor
// a status written by an older operator may carry fields since removed (templateVersion)
@JsonIgnoreProperties(ignoreUnknown = true)
public class OperatorDefaults {
  @JsonPropertyDescription("Node image used when spec.image is unset.")
  private String image;

  @JsonPropertyDescription("JVM options every node gets before spec.jvmOptions.")
  private List<String> jvmOptions = new ArrayList<>();

  @JsonPropertyDescription(
      "Fingerprint of the operator's node pod template (probes, volumes, the flags it sets): a"
          + " hash of the template it renders for a reference cluster.")
  private String template;

  @SchemaFrom(type = KubernetesSchemas.ResourceRequirements.class)
  @JsonPropertyDescription(
      "Resources of a node container when spec.resources is unset: requested, so that node pods"
          + " are not BestEffort, and a memory limit that the heap is sized from.")
  private ResourceRequirements resources;

  public OperatorDefaults(
      String image, List<String> jvmOptions, String template, ResourceRequirements resources) {
    this.image = image;
    this.jvmOptions = List.copyOf(jvmOptions);
    this.template = template;
    this.resources = resources;
  }

  /**
   * Requests of 250m CPU and 512Mi, a limit of 1Gi (the heap takes half of it, RocksDB's caches
   * live off-heap); no CPU limit, which would throttle the event loops.
   */
  public static ResourceRequirements defaultResources() {
    return new ResourceRequirementsBuilder()
        .addToRequests("cpu", new Quantity("250m"))
        .addToRequests("memory", new Quantity("512Mi"))
        .addToLimits("memory", new Quantity("1Gi"))
        .build();
  }

  /** This operator's defaults, with {@code image} as its default node image. */
  public static OperatorDefaults current(String image) {
    return new OperatorDefaults(
        image, ClusterModel.BASE_JVM_OPTIONS, NodePodTemplate.FINGERPRINT, defaultResources());
  }

  /** What differs from {@code newer}, for people: "image a -> b, ...". */
  public String differences(OperatorDefaults newer) {
    var parts = new ArrayList<String>();
    if (!Objects.equals(image, newer.image)) {
      parts.add("image " + image + " -> " + newer.image);
    }
    if (!Objects.equals(jvmOptions, newer.jvmOptions)) {
      parts.add("base JVM options " + jvmOptions + " -> " + newer.jvmOptions);
    }
    if (!Objects.equals(resources, newer.resources)) {
      parts.add("default resources");
    }
    if (!Objects.equals(template, newer.template)) {
      parts.add("pod template " + template + " -> " + newer.template);
    }
    return String.join(", ", parts);
  }
}
