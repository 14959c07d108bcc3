package dev.dht.operator.cluster;

import io.fabric8.kubernetes.api.model.LocalObjectReference;
import java.util.List;

/**
 * How node pods get their image when the DhtCluster does not say: the operator's pull policy and
 * pull secrets (chart values {@code node.image.pullPolicy}, {@code node.imagePullSecrets}).
 */
public record ImagePull(String policy, List<String> secrets) {
  public static final ImagePull DEFAULT = new ImagePull("IfNotPresent", List.of());

  /**
   * How a cluster's pods pull: its {@code spec.imagePullPolicy} and {@code spec.imagePullSecrets}
   * where it sets them, else these (each on its own). Pure.
   */
  public ImagePull forCluster(DhtClusterSpec spec) {
    if (spec == null) {
      return this;
    }
    return new ImagePull(
        spec.getImagePullPolicy() != null ? spec.getImagePullPolicy().name() : policy,
        spec.getImagePullSecrets() != null && !spec.getImagePullSecrets().isEmpty()
            ? spec.getImagePullSecrets().stream().map(LocalObjectReference::getName).toList()
            : secrets);
  }

  /** The pull secrets as a pod spec names them. */
  public List<LocalObjectReference> secretReferences() {
    return secrets.stream().map(LocalObjectReference::new).toList();
  }
}
