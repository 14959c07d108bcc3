package dev.dht.operator.scaling;

import dev.dht.operator.scaling.Membership.Step;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The steps of a change of a cluster's size, decided from what was observed. Pure: given where the
 * change stands, the replicas wanted and what each node reports, it says what to publish next,
 * which nodes to ask to stream or clean up, and what it waits for. One change at a time: a new size
 * wanted during a change waits until that change is done (except while new pods are still starting,
 * when nothing was published yet and the change can be retargeted or dropped).
 *
 * <p>Growing N → M: the new pods start (unlisted, they wait) → joining → streaming → reads from the
 * next ring → final membership → cleanup. Shrinking: leaving → streaming → reads from the next ring
 * → final membership → the StatefulSet shrinks → cleanup. Each membership is observed by every node
 * concerned before the next is published.
 */
public final class ScalePlan {
  /**
   * What to do now: the membership to publish, nodes to ask, and why it waits (null: it does not).
   */
  public record Decision(
      Membership next, List<Integer> stream, List<Integer> cleanup, String waiting) {}

  private ScalePlan() {}

  /**
   * @param now where the change stands (stable when there is none)
   * @param desired the replicas wanted (the spec)
   * @param minimum the fewest members allowed (the default from)
   * @param nodes what each pod's node reported, by ordinal
   * @param names pod names by ordinal, for the messages
   */
  public static Decision next(
      Membership now, int desired, int minimum, Map<Integer, NodeView> nodes, Names names) {
    return switch (now.getStep()) {
      case STABLE -> start(now, desired, minimum);
      case STARTING -> starting(now, desired, nodes, names);
      case JOINING -> {
        String waiting = observed(now, nodes, names);
        yield waiting != null
            ? wait(now, waiting + later(now, desired))
            : new Decision(
                at(now, now.getEpoch(), Step.STREAMING),
                range(0, now.getTarget()),
                List.of(),
                null);
      }
      case STREAMING -> streaming(now, desired, nodes, names);
      case READING_NEXT -> {
        String waiting = observed(now, nodes, names);
        yield waiting != null
            ? wait(now, waiting + later(now, desired))
            : go(at(now, now.getEpoch() + 1, Step.FINAL));
      }
      case FINAL -> {
        String waiting = observed(now, nodes, names);
        yield waiting != null
            ? wait(now, waiting + later(now, desired))
            : new Decision(
                at(now, now.getEpoch(), Step.CLEANING_UP),
                List.of(),
                range(0, now.getTarget()),
                null);
      }
      case CLEANING_UP -> cleaning(now, desired, nodes, names);
    };
  }

  /** Pod names by ordinal. */
  public interface Names {
    String of(int ordinal);
  }

  private static Decision start(Membership now, int desired, int minimum) {
    if (desired == now.getMembers()) {
      return go(now);
    }
    if (desired < minimum) {
      return wait(
          now,
          "refused: "
              + desired
              + " replicas is fewer than the default from ("
              + minimum
              + "); lower defaultFrom first");
    }
    if (desired > now.getMembers()) {
      return go(new Membership(now.getEpoch(), now.getMembers(), desired, Step.STARTING));
    }
    return go(new Membership(now.getEpoch() + 1, now.getMembers(), desired, Step.JOINING));
  }

  private static Decision starting(
      Membership now, int desired, Map<Integer, NodeView> nodes, Names names) {
    if (desired <= now.getMembers()) {
      return go(Membership.stable(now.getEpoch(), now.getMembers())); // nothing was published
    }
    if (desired != now.getTarget()) {
      return go(new Membership(now.getEpoch(), now.getMembers(), desired, Step.STARTING));
    }
    for (int i = now.getMembers(); i < now.getTarget(); i++) {
      NodeView node = nodes.get(i);
      if (node == null || !node.podReady() || !node.answered()) {
        return wait(now, "waiting for the new pod " + names.of(i) + " to be Ready");
      }
    }
    return go(new Membership(now.getEpoch() + 1, now.getMembers(), now.getTarget(), Step.JOINING));
  }

  private static Decision streaming(
      Membership now, int desired, Map<Integer, NodeView> nodes, Names names) {
    List<Integer> again = new ArrayList<>();
    String waiting = null;
    for (int i = 0; i < now.getTarget(); i++) {
      NodeView node = nodes.get(i);
      if (node != null && node.streamedEpoch() == now.getEpoch()) {
        continue;
      }
      if (node != null && node.answered() && !node.streaming()) {
        again.add(i); // not started, or failed: ask again
      }
      if (waiting == null) {
        waiting = "waiting for " + names.of(i) + " to stream the keys it will own";
      }
    }
    if (waiting == null) {
      return go(at(now, now.getEpoch() + 1, Step.READING_NEXT));
    }
    return new Decision(now, again, List.of(), waiting + later(now, desired));
  }

  private static Decision cleaning(
      Membership now, int desired, Map<Integer, NodeView> nodes, Names names) {
    List<Integer> again = new ArrayList<>();
    String waiting = null;
    for (int i = 0; i < now.getTarget(); i++) {
      NodeView node = nodes.get(i);
      if (node != null && node.cleanedEpoch() == now.getEpoch()) {
        continue;
      }
      if (node != null && node.answered() && !node.cleaning()) {
        again.add(i);
      }
      if (waiting == null) {
        waiting = "waiting for " + names.of(i) + " to drop what it no longer owns";
      }
    }
    if (waiting == null) {
      return go(Membership.stable(now.getEpoch(), now.getTarget()));
    }
    return new Decision(now, List.of(), again, waiting + later(now, desired));
  }

  /** Null if every node concerned runs with the current epoch; else what it waits for. */
  private static String observed(Membership now, Map<Integer, NodeView> nodes, Names names) {
    for (int i = 0; i < now.nodes(); i++) {
      NodeView node = nodes.get(i);
      if (node == null || !node.answered()) {
        return "waiting for " + names.of(i) + " to answer";
      }
      if (node.epoch() < now.getEpoch()) {
        return "waiting for " + names.of(i) + " to observe membership epoch " + now.getEpoch();
      }
    }
    return null;
  }

  private static String later(Membership now, int desired) {
    return desired == now.getTarget()
        ? ""
        : "; the change to " + desired + " replicas waits until this one is done";
  }

  private static Membership at(Membership now, long epoch, Step step) {
    return new Membership(epoch, now.getMembers(), now.getTarget(), step);
  }

  private static Decision go(Membership next) {
    return new Decision(next, List.of(), List.of(), null);
  }

  private static Decision wait(Membership now, String why) {
    return new Decision(now, List.of(), List.of(), why);
  }

  private static List<Integer> range(int from, int to) {
    List<Integer> all = new ArrayList<>();
    for (int i = from; i < to; i++) {
      all.add(i);
    }
    return all;
  }
}
