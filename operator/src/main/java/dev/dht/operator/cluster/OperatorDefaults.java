package dev.dht.operator.cluster;

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
 * options, and the version of the pod template's shape (probes, hooks, volumes). A cluster keeps
 * the defaults it was given ({@code status.operatorDefaults}) until a restart for new ones is
 * allowed ({@link UpgradeGate}).
 */
@Data
@NoArgsConstructor
public class OperatorDefaults {
  /**
   * Bumped whenever the operator changes the node pod template's shape. 3: thread counts follow the
   * container's CPU ({@link NodeThreads}). 4: the node warms up before it serves.
   */
  public static final int TEMPLATE_VERSION = 4;

  @JsonPropertyDescription("Node image used when spec.image is unset.")
  private String image;

  @JsonPropertyDescription("JVM options every node gets before spec.jvmOptions.")
  private List<String> jvmOptions = new ArrayList<>();

  @JsonPropertyDescription("Version of the operator's node pod template.")
  private int templateVersion;

  @SchemaFrom(type = KubernetesSchemas.ResourceRequirements.class)
  @JsonPropertyDescription(
      "Resources of a node container when spec.resources is unset: requested, so that node pods"
          + " are not BestEffort, and a memory limit that the heap is sized from.")
  private ResourceRequirements resources;

  public OperatorDefaults(
      String image, List<String> jvmOptions, int templateVersion, ResourceRequirements resources) {
    this.image = image;
    this.jvmOptions = List.copyOf(jvmOptions);
    this.templateVersion = templateVersion;
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
        image, ClusterModel.BASE_JVM_OPTIONS, TEMPLATE_VERSION, defaultResources());
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
    if (templateVersion != newer.templateVersion) {
      parts.add("pod template v" + templateVersion + " -> v" + newer.templateVersion);
    }
    return String.join(", ", parts);
  }
}
