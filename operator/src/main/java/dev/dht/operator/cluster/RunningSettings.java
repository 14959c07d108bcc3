package dev.dht.operator.cluster;

import dev.dht.operator.cluster.ClusterStatusCalculator.Observation;
import dev.dht.operator.rolling.PodState;
import dev.dht.operator.scaling.NodeView;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What the nodes run, not what the spec asks: ack, from, members and revision (kept from before
 * while unknown), and each node as observed.
 */
final class RunningSettings {
  private RunningSettings() {}

  /** Sets ack, from, members, member count, revision and nodes on {@code status}. */
  static void fill(Observation in, Optional<DhtClusterStatus> previous, DhtClusterStatus status) {
    var model = in.model();
    List<NodeView> answered =
        in.seen().nodes().values().stream().filter(NodeView::answered).toList();
    status.setDefaultAck(
        agreed(answered.stream().map(v -> v.report().defaultAck()).toList())
            .orElse(previous.map(DhtClusterStatus::getDefaultAck).orElse(null)));
    status.setDefaultFrom(
        agreed(answered.stream().map(v -> v.report().defaultFrom()).toList())
            .orElse(previous.map(DhtClusterStatus::getDefaultFrom).orElse(null)));
    boolean publishedReached =
        !answered.isEmpty()
            && answered.stream().allMatch(v -> v.epoch() == model.membership().getEpoch());
    if (publishedReached) {
      status.setMembers(model.members());
      status.setMemberCount(model.membership().nodes());
    } else {
      status.setMembers(previous.map(DhtClusterStatus::getMembers).orElse(List.of()));
      status.setMemberCount(previous.map(DhtClusterStatus::getMemberCount).orElse(null));
    }
    status.setRevision(revision(in.seen(), previous));
    status.setNodes(
        in.seen().pods().stream()
            .map(p ->
                ObservedNode.of(
                    p, in.seen().images().get(p.ordinal()), in.seen().node(p.ordinal())))
            .toList());
  }

  /** The revision every existing pod runs; the one from before while no pod exists. */
  private static String revision(Seen seen, Optional<DhtClusterStatus> previous) {
    List<String> revisions =
        seen.pods().stream()
            .filter(PodState::exists)
            .map(p -> p.revision() == null ? null : p.revision().id())
            .toList();
    if (revisions.isEmpty()) {
      return previous.map(DhtClusterStatus::getRevision).orElse(null);
    }
    return agreed(revisions).orElse(null);
  }

  /** The value every element has; empty for none or several (or an unknown one). */
  private static <T> Optional<T> agreed(List<T> values) {
    if (values.isEmpty() || values.stream().distinct().count() != 1) {
      return Optional.empty();
    }
    T value = values.getFirst();
    return value == null || Objects.equals(value, -1) ? Optional.empty() : Optional.of(value);
  }
}
