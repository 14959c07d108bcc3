package dev.dht.operator.cluster;

import java.util.List;

/**
 * How node pods get their image when the DhtCluster does not say: the operator's pull policy and
 * pull secrets (chart values {@code node.image.pullPolicy}, {@code node.imagePullSecrets}).
 */
public record ImagePull(String policy, List<String> secrets) {
  public static final ImagePull DEFAULT = new ImagePull("IfNotPresent", List.of());
}
