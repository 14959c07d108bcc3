package dev.dht.operator.policy;

import java.util.List;
import java.util.Optional;

/**
 * What tenants may ask of the operator through their custom resources, as the chart's values {@code
 * policy.*} set it: where a DhtLoadTest may send load ({@link LoadTestTargets}), which image a
 * DhtCluster may run ({@link AllowedImages}) and with which JVM options ({@link
 * AllowedJvmOptions}). Pure.
 */
public record ChartPolicy(
    LoadTestTargets loadTestTargets, AllowedImages images, AllowedJvmOptions jvmOptions) {

  /** The chart's defaults: no targetUrl, any image, any JVM option. */
  public static final ChartPolicy DEFAULT = of(List.of(), List.of(), List.of());

  /** The policy of the chart's lists; an IllegalArgumentException names the malformed entry. */
  public static ChartPolicy of(
      List<String> loadTestTargets, List<String> images, List<String> jvmOptions) {
    return new ChartPolicy(
        LoadTestTargets.of(loadTestTargets),
        new AllowedImages(images),
        new AllowedJvmOptions(jvmOptions));
  }

  /**
   * Why a DhtCluster's nodes may not run its spec.image ({@code image}, null or blank: the
   * operator's, {@code operatorImage}) with its spec.jvmOptions, if they may not.
   */
  public Optional<Refusal> nodes(String image, List<String> options, String operatorImage) {
    var refusal =
        image == null || image.isBlank()
            ? Optional.<Refusal>empty()
            : images.check("spec.image", image, operatorImage);
    return refusal.isPresent() ? refusal : jvmOptions.check(options == null ? List.of() : options);
  }

  /** For the operator's log: what is allowed. */
  public String describe() {
    var targets = loadTestTargets.rules().stream().map(TargetRule::text).toList();
    return "load test targets "
        + (targets.isEmpty() ? "none (clusterRef only)" : targets)
        + ", images "
        + (images.entries().isEmpty() ? "any" : images.entries())
        + ", JVM options "
        + (jvmOptions.prefixes().isEmpty() ? "any" : "starting with " + jvmOptions.prefixes());
  }
}
