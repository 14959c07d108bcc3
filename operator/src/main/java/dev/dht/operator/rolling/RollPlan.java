package dev.dht.operator.rolling;

import dev.dht.operator.scaling.Membership;
import dev.dht.operator.scaling.NodeView;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Which node pod to restart next so that its pod runs the current settings, or why none may be
 * restarted now. Pure: the reconciler observes, this decides, the reconciler evicts the pod (the
 * StatefulSet, {@code OnDelete}, recreates it from the current template).
 *
 * <p>The rules, in order:
 *
 * <ol>
 *   <li>nothing outdated: nothing to do;
 *   <li>nothing before the StatefulSet controller has taken the current template (a pod deleted now
 *       could come back from the old one);
 *   <li>an outdated pod that is not Ready serves nothing: restarting it costs no replica, unless
 *       another pod is down too and the restart would stack the two. This is how a cluster stuck on
 *       a broken setting gets the fixed one, during a change of size too (which would otherwise
 *       wait for the broken pod forever);
 *   <li>nothing else during a change of size or of the default ack/from: it moves data between the
 *       very nodes a restart would stop; nor while a node is replaced on a new volume: its keys
 *       have one replica fewer until it pulled them from its peers (and the pod of a replacement
 *       that is about to be evicted may still look up);
 *   <li>otherwise every pod must be Ready, and every node must have caught up: answered, serves
 *       reads (not bootstrapping), holds no hints, streams or cleans nothing (so the pod restarted
 *       last is back in full);
 *   <li>never when one more replica down would leave a key with fewer than {@code ack} live
 *       replicas: with every pod up, a restart leaves {@code from - 1} of some keys;
 *   <li>then the outdated pod of the highest ordinal.
 * </ol>
 *
 * <p>A restart is an eviction, so the disruption budget has the last word (a drain may have taken
 * the one pod it allows meanwhile); when it refuses, the roll waits ({@link Restart#refused}).
 */
public final class RollPlan {
  private RollPlan() {}

  /**
   * What was observed: pods by ordinal, what their nodes report, the defaults in force (during a
   * change of them, the stricter of the current and the next ones), where a change of size or of
   * the defaults stands (the membership as published, this reconciliation's step included), and the
   * pod being replaced on a new volume (null if none).
   */
  public record Input(
      List<PodState> pods,
      Map<Integer, NodeView> nodes,
      DesiredRevision desired,
      int defaultAck,
      int defaultFrom,
      Membership membership,
      boolean templateObserved,
      String replacing) {

    /** With no node being replaced. */
    public Input(
        List<PodState> pods,
        Map<Integer, NodeView> nodes,
        DesiredRevision desired,
        int defaultAck,
        int defaultFrom,
        Membership membership,
        boolean templateObserved) {
      this(pods, nodes, desired, defaultAck, defaultFrom, membership, templateObserved, null);
    }

    /** With the StatefulSet's controller known to have taken the current template. */
    public Input(
        List<PodState> pods,
        Map<Integer, NodeView> nodes,
        DesiredRevision desired,
        int defaultAck,
        int defaultFrom,
        Membership membership) {
      this(pods, nodes, desired, defaultAck, defaultFrom, membership, true, null);
    }

    /**
     * A change of size or of the default ack/from is under way: a step of it was published. Not
     * merely wanted: a change the plan refuses ("refused: ...", e.g. fewer replicas than {@code
     * from}) publishes nothing, and must not hold every roll back until someone notices.
     */
    boolean scaling() {
      return membership.getStep() != Membership.Step.STABLE;
    }
  }

  /** The decision. */
  public sealed interface Decision {
    /** Pods created with other settings, in ordinal order; empty when there is nothing to do. */
    List<String> outdated();
  }

  /** Every pod runs the current settings. */
  public record Done(List<String> outdated) implements Decision {}

  /** Restart {@code pod} now. */
  public record Restart(List<String> outdated, PodState pod, String reason) implements Decision {
    /** The eviction was refused by the disruption budget ({@code budget} says why): wait. */
    public Wait refused(String budget) {
      return new Wait(outdated, "the disruption budget allows no eviction now: " + budget);
    }

    /**
     * The eviction failed otherwise ({@code why}, the API's answer), e.g. for a pod that a second
     * budget selects, which the Eviction API does not support: wait, and say so.
     */
    public Wait failed(String why) {
      return new Wait(outdated, "evicting " + pod.name() + " failed: " + why);
    }
  }

  /** Nothing may be restarted now, for {@code why}; the roll goes on once that changes. */
  public record Wait(List<String> outdated, String why) implements Decision {}

  /** Nothing may ever be restarted by the operator while the defaults stay as they are. */
  public record Refuse(List<String> outdated, String why) implements Decision {}

  public static Decision next(Input in) {
    List<PodState> outdated = in.pods().stream().filter(p -> p.outdated(in.desired())).toList();
    List<String> names = outdated.stream().map(PodState::name).toList();
    if (outdated.isEmpty()) {
      return new Done(names);
    }
    if (!in.templateObserved()) {
      // a pod deleted now could come back from the old template
      return new Wait(names, "waiting for the StatefulSet controller to take the new template");
    }
    List<PodState> down = in.pods().stream().filter(p -> !p.up()).toList();
    var notReadyOutdated = outdated.stream().filter(p -> !p.terminating() && !p.ready()).toList();
    if (!notReadyOutdated.isEmpty() && down.size() == 1) {
      var pod = notReadyOutdated.getFirst();
      return new Restart(
          names, pod, createdWith(in, pod) + ", and not Ready: restarting it costs no replica");
    }
    if (in.scaling()) {
      return new Wait(names, in.membership().change() + " is under way");
    }
    if (in.replacing() != null) {
      return new Wait(names, "waiting for the replacement of " + in.replacing() + " to finish");
    }
    if (!down.isEmpty()) {
      var first = down.getFirst();
      String state = !first.exists() ? "be created" : first.terminating() ? "stop" : "be Ready";
      return new Wait(names, "waiting for " + first.name() + " to " + state);
    }
    for (PodState pod : in.pods()) {
      NodeView node = in.nodes().get(pod.ordinal());
      if (node == null || !node.answered()) {
        return new Wait(names, "waiting for " + pod.name() + " to answer on its admin endpoint");
      }
      if (!node.caughtUp()) {
        return new Wait(names, "waiting for " + pod.name() + " to catch up: " + behind(node));
      }
    }
    if (in.defaultFrom() - 1 < in.defaultAck()) {
      return new Refuse(
          names,
          "restarting any node would leave some keys with "
              + (in.defaultFrom() - 1)
              + " live replicas, fewer than the default ack "
              + in.defaultAck()
              + "; delete the pods yourself to restart them");
    }
    var pod = outdated.stream().max(Comparator.comparingInt(PodState::ordinal)).orElseThrow();
    return new Restart(names, pod, createdWith(in, pod));
  }

  /** "created with other settings: image, node flags". */
  private static String createdWith(Input in, PodState pod) {
    return "created with other settings: " + in.desired().changesFor(pod.revision());
  }

  private static String behind(NodeView node) {
    if (!node.servesReads()) {
      String phase = node.report().dataPhase();
      return phase.equals("checking")
          ? "checking whether its data is stale"
          : phase + " after an empty start";
    }
    if (node.report().pendingHints() > 0) {
      return node.report().pendingHints() + " hints to hand over";
    }
    return node.streaming() ? "streaming" : "cleaning up";
  }
}
