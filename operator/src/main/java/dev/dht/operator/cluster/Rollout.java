package dev.dht.operator.cluster;

import dev.dht.operator.rolling.DesiredRevision;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import java.util.Optional;

/** The StatefulSet's progress towards the model (or towards its own spec while paused). */
record Rollout(
    boolean exists, int desired, int current, int ready, int updated, boolean rolledOut) {

  boolean allReady() {
    return exists && ready >= desired;
  }

  /**
   * Rolled out: the controller saw the latest StatefulSet, it asks for the model's pods with the
   * model's revision, and every pod seen runs that revision (the pods are restarted by the roller,
   * so the StatefulSet controller's own revisions may differ).
   */
  static Rollout of(ClusterModel model, Optional<StatefulSet> observed, boolean paused, Seen seen) {
    if (observed.isEmpty()) {
      return new Rollout(false, model.pods(), 0, 0, 0, false);
    }
    var sts = observed.get();
    var spec = sts.getSpec();
    var st = sts.getStatus();
    int specReplicas = orZero(spec.getReplicas());
    int desired = paused ? specReplicas : model.pods();
    int current = st == null ? 0 : orZero(st.getReplicas());
    int ready = st == null ? 0 : orZero(st.getReadyReplicas());
    var desiredRevision = model.desiredRevision();
    var applied =
        new DesiredRevision(StatefulSetDependent.revision(sts), desiredRevision.templateAccepted());
    int updated =
        seen.any()
            ? (int)
                seen.pods().stream().filter(p -> p.exists() && applied.runBy(p.revision())).count()
            : st == null ? 0 : orZero(st.getUpdatedReplicas());
    boolean observedLatest =
        st != null
            && st.getObservedGeneration() != null
            && st.getObservedGeneration() >= sts.getMetadata().getGeneration();
    boolean matchesModel =
        paused
            || specReplicas == model.pods()
                && desiredRevision.revision().equals(applied.revision());
    boolean rolledOut = observedLatest && updated >= specReplicas && matchesModel;
    return new Rollout(true, desired, current, ready, updated, rolledOut);
  }

  private static int orZero(Integer value) {
    return value == null ? 0 : value;
  }
}
