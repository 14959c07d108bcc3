package dev.dht.operator.cluster;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.javaoperatorsdk.operator.processing.event.source.filter.OnUpdateFilter;
import java.util.Objects;

/**
 * Which updates of a DhtCluster start a reconciliation: a new spec (generation), or new labels,
 * annotations (the pause and restart annotations), finalizers or a deletion. Not a change of the
 * status alone: the operator writes it itself, with what the nodes report (e.g. their estimated key
 * counts, which move with every write). Reacting to its own status made a reconciliation loop that
 * ran as fast as it could while a cluster took writes, with its apiserver calls and node polls. The
 * periodic reconciliation still observes the nodes.
 */
public final class NotOwnStatus implements OnUpdateFilter<DhtCluster> {
  @Override
  public boolean accept(DhtCluster newer, DhtCluster older) {
    return changed(newer.getMetadata(), older.getMetadata());
  }

  static boolean changed(ObjectMeta newer, ObjectMeta older) {
    return !Objects.equals(newer.getGeneration(), older.getGeneration())
        || !Objects.equals(newer.getLabels(), older.getLabels())
        || !Objects.equals(newer.getAnnotations(), older.getAnnotations())
        || !Objects.equals(newer.getFinalizers(), older.getFinalizers())
        || !Objects.equals(newer.getDeletionTimestamp(), older.getDeletionTimestamp());
  }
}
