package dev.dht.operator.cluster;

import static dev.dht.operator.cluster.Clusters.cluster;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NotOwnStatusTest {
  private final NotOwnStatus filter = new NotOwnStatus();
  private final DhtCluster older = cluster(3);

  @Test
  void aNewStatusAloneStartsNoReconciliation() {
    var newer = cluster(3);
    newer.getMetadata().setResourceVersion("2");
    var status = new DhtClusterStatus();
    status.setReadyReplicas(3);
    newer.setStatus(status);
    assertThat(filter.accept(newer, older)).isFalse();
  }

  @Test
  void aNewSpecLabelsAnnotationsFinalizersOrADeletionDo() {
    var spec = cluster(4);
    spec.getMetadata().setGeneration(2L);
    assertThat(filter.accept(spec, older)).isTrue();

    var paused = cluster(3);
    paused.getMetadata().setAnnotations(Map.of("dht.dev/paused", "true"));
    assertThat(filter.accept(paused, older)).isTrue();

    var labelled = cluster(3);
    labelled.getMetadata().setLabels(Map.of("team", "a"));
    assertThat(filter.accept(labelled, older)).isTrue();

    var finalized = cluster(3);
    finalized.getMetadata().setFinalizers(List.of("x"));
    assertThat(filter.accept(finalized, older)).isTrue();

    var deleted = cluster(3);
    deleted.getMetadata().setDeletionTimestamp("2026-11-24T17:00:00Z");
    assertThat(filter.accept(deleted, older)).isTrue();
  }
}
