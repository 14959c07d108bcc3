package dev.dht.operator.cluster;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What the operator, not the DhtCluster, puts into a node pod: the default image, the base JVM
 * options, and the version of the pod template's shape (probes, hooks, volumes). A cluster keeps
 * the defaults it was given ({@code status.operatorDefaults}) until a restart for new ones is
 * allowed ({@link UpgradeGate}).
 */
public class OperatorDefaults {
  /** Bumped whenever the operator changes the node pod template's shape. */
  public static final int TEMPLATE_VERSION = 2;

  @JsonPropertyDescription("Node image used when spec.image is unset.")
  private String image;

  @JsonPropertyDescription("JVM options every node gets before spec.jvmOptions.")
  private List<String> jvmOptions = new ArrayList<>();

  @JsonPropertyDescription("Version of the operator's node pod template.")
  private int templateVersion;

  public OperatorDefaults() {}

  public OperatorDefaults(String image, List<String> jvmOptions, int templateVersion) {
    this.image = image;
    this.jvmOptions = List.copyOf(jvmOptions);
    this.templateVersion = templateVersion;
  }

  /** This operator's defaults, with {@code image} as its default node image. */
  public static OperatorDefaults current(String image) {
    return new OperatorDefaults(image, ClusterModel.BASE_JVM_OPTIONS, TEMPLATE_VERSION);
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
    if (templateVersion != newer.templateVersion) {
      parts.add("pod template v" + templateVersion + " -> v" + newer.templateVersion);
    }
    return String.join(", ", parts);
  }

  public String getImage() {
    return image;
  }

  public void setImage(String image) {
    this.image = image;
  }

  public List<String> getJvmOptions() {
    return jvmOptions;
  }

  public void setJvmOptions(List<String> jvmOptions) {
    this.jvmOptions = jvmOptions;
  }

  public int getTemplateVersion() {
    return templateVersion;
  }

  public void setTemplateVersion(int templateVersion) {
    this.templateVersion = templateVersion;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof OperatorDefaults other
        && Objects.equals(image, other.image)
        && Objects.equals(jvmOptions, other.jvmOptions)
        && templateVersion == other.templateVersion;
  }

  @Override
  public int hashCode() {
    return Objects.hash(image, jvmOptions, templateVersion);
  }
}
