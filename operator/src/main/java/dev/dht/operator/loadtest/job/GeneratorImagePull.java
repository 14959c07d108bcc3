package dev.dht.operator.loadtest.job;

import dev.dht.operator.cluster.DhtCluster;
import dev.dht.operator.cluster.ImagePull;
import dev.dht.operator.loadtest.DhtLoadTest;
import java.util.Optional;

/**
 * How generator pods pull their image: like the target cluster's nodes (its {@code
 * spec.imagePullPolicy} and {@code spec.imagePullSecrets}, else the operator's), since they run the
 * cluster's image; for a {@code targetUrl}, the operator's defaults (chart {@code
 * node.image.pullPolicy}, {@code node.imagePullSecrets}) with the operator's default image. Pure.
 */
public final class GeneratorImagePull {
  private GeneratorImagePull() {}

  public static ImagePull of(DhtLoadTest test, Optional<DhtCluster> cluster, ImagePull operator) {
    var ref = test.getSpec().getClusterRef();
    if (ref == null) {
      return operator;
    }
    return cluster
        .filter(c -> ref.getName().equals(c.getMetadata().getName()))
        .map(c -> operator.forCluster(c.getSpec()))
        .orElse(operator);
  }
}
