package dev.dht.operator.scaling;

import dev.dht.contract.MembersFile.Replication;
import dev.dht.operator.scaling.Membership.Step;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The steps of a change of a cluster's size or of its default ack/from, decided from what was
 * observed. Pure: given where the change stands, the replicas and the default ack/from wanted and
 * what each node reports, it says what to publish next, which nodes to ask to stream or clean up,
 * and what it waits for. One change at a time: a new size or ack/from wanted during a change waits
 * until that change is done (except while new pods are still starting, when nothing was published
 * yet and the change can be retargeted or dropped).
 *
 * <p>Growing N → M: the new pods start (unlisted, they wait) → joining → streaming → reads from the
 * next ring → final membership → cleanup. Shrinking: leaving → streaming → reads from the next ring
 * → final membership → the StatefulSet shrinks → cleanup. Each membership is observed by every node
 * concerned before the next is published.
 *
 * <p>A change wanted no more (the spec is back to the replicas and ack/from in force) is aborted
 * before reads switch for good: from joining or streaming, the membership before the change is
 * published as a final one (the pods of both stay until every node observed it, then a cleanup);
 * from reads on the next ring, reads first go back to the current one. A shrink does not wait for
 * members the spec's annotation declares lost: they are published as lost, and the others stream
 * their keys from the surviving replicas.
 *
 * <p>A change of the default ack/from takes the same steps with the same members: the next ring is
 * the same nodes with the new ack/from, so its wider (or narrower) replica sets are filled by the
 * streams before reads use them. It comes before a change of size when the members suffice for the
 * new from (so 5 → 3 replicas with from 5 → 3 narrows, then shrinks), after it otherwise (3 → 5
 * replicas with from 3 → 5 grows, then widens).
 *
 * <p>Zones: the members file gives each member the zone its pod's Kubernetes node is labelled with,
 * once every node listed places by zone (a node of an older version would refuse the file). A
 * change of size or of ack/from takes the zones seen then; with nothing else to change, zones that
 * differ from those in force (a label set, or changed) take the same steps with the same members,
 * the next ring placing by the new zones. Such a change is undone, as above, if the nodes are in
 * the zones in force again before reads switch.
 */
public final class ScalePlan {
  /**
   * What to do now: the membership to publish, nodes to ask, and why it waits (null: it does not).
   */
  public record Decision(
      Membership next, List<Integer> stream, List<Integer> cleanup, String waiting) {}

  /**
   * What the spec asks: the replicas, the default ack/from, and the ordinals declared lost for
   * good; and the zones the pods' Kubernetes nodes are labelled with, by ordinal ("" for a node
   * without the label; absent: not known, as for a pod not scheduled yet).
   */
  public record Wanted(
      int replicas, Replication replication, Set<Integer> lost, Map<Integer, String> zones) {
    public Wanted(int replicas, Replication replication, Set<Integer> lost) {
      this(replicas, replication, lost, Map.of());
    }

    public Wanted(int replicas, Replication replication) {
      this(replicas, replication, Set.of());
    }
  }

  private ScalePlan() {}

  /** As below, with no member declared lost. */
  public static Decision next(
      Membership now,
      int desired,
      Replication replication,
      Map<Integer, NodeView> nodes,
      Names names) {
    return next(now, new Wanted(desired, replication), nodes, names);
  }

  /**
   * @param now where the change stands (stable when there is none), with the ack/from in force
   * @param wanted the replicas and default ack/from wanted (the spec, or the pinned ones), and the
   *     ordinals declared lost
   * @param nodes what each pod's node reported, by ordinal
   * @param names pod names by ordinal, for the messages
   */
  public static Decision next(
      Membership now, Wanted wanted, Map<Integer, NodeView> nodes, Names names) {
    Step step = now.getStep();
    boolean changing = step == Step.JOINING || step == Step.STREAMING || step == Step.READING_NEXT;
    List<Integer> newlyLost = changing ? newlyLost(now, wanted) : List.of();
    if (!newlyLost.isEmpty()) { // another file: another epoch, at the same step
      List<Integer> lost = new ArrayList<>(now.getLost());
      lost.addAll(newlyLost);
      return go(now.toBuilder().epoch(now.getEpoch() + 1).lost(List.copyOf(lost)).build());
    }
    return switch (step) {
      case STABLE -> start(now, wanted, nodes);
      case STARTING -> starting(now, wanted, nodes, names);
      case JOINING -> {
        String waiting = observed(now, nodes, names);
        if (waiting != null) {
          yield wait(now, waiting + later(now, wanted));
        }
        yield wantedNoMore(now, wanted)
            ? abort(now)
            : new Decision(
                at(now, now.getEpoch(), Step.STREAMING),
                range(0, now.getTarget()),
                List.of(),
                null);
      }
      case STREAMING ->
          wantedNoMore(now, wanted) ? abort(now) : streaming(now, wanted, nodes, names);
      case READING_NEXT -> {
        String waiting = observed(now, nodes, names);
        if (waiting != null) {
          yield wait(now, waiting + later(now, wanted));
        }
        // aborted: reads go back to the current ring (joint writes still) before the change is
        // undone, so that no node reads the next ring while another writes to the current one only
        yield go(
            at(now, now.getEpoch() + 1, wantedNoMore(now, wanted) ? Step.JOINING : Step.FINAL));
      }
      case FINAL -> {
        String waiting = observed(now, nodes, names);
        yield waiting != null
            ? wait(now, waiting + later(now, wanted))
            : new Decision(
                at(now, now.getEpoch(), Step.CLEANING_UP),
                List.of(),
                range(0, now.getTarget()),
                null);
      }
      case CLEANING_UP -> cleaning(now, wanted, nodes, names);
    };
  }

  /** Pod names by ordinal. */
  public interface Names {
    String of(int ordinal);
  }

  /**
   * Whether the spec is back to what was in force before the change under way; for a change of
   * zones only, whether the members' nodes are in the zones in force again (a label set back, or
   * spec.topology.placeReplicasByZone turned off before the first zones took).
   */
  private static boolean wantedNoMore(Membership now, Wanted wanted) {
    if (now.changesZonesOnly()) {
      return Zones.kept(now.getZones(), now.getMembers())
          .equals(Zones.observed(wanted.zones(), now.getMembers()));
    }
    return wanted.replicas() == now.getMembers() && wanted.replication().equals(now.replication());
  }

  /**
   * The zones the members' nodes are labelled with when nothing else changes, if they differ from
   * those in force and every member places by zone; else null.
   */
  public static List<String> rezone(Membership now, Wanted wanted, Map<Integer, NodeView> nodes) {
    int members = now.getMembers();
    if (now.getStep() != Step.STABLE || !placeByZone(nodes, members)) {
      return null;
    }
    List<String> observed = Zones.observed(wanted.zones(), members);
    return observed == null || observed.equals(Zones.kept(now.getZones(), members))
        ? null
        : observed;
  }

  /**
   * The zones of ordinals 0..n-1 in the next ring: those seen, if every node listed places by zone
   * and each is known; else those in force.
   */
  private static List<String> zonesAfter(
      Membership now, Wanted wanted, Map<Integer, NodeView> nodes, int n) {
    List<String> observed =
        placeByZone(nodes, Math.max(now.getMembers(), n))
            ? Zones.observed(wanted.zones(), n)
            : null;
    return observed != null ? observed : Zones.kept(now.getZones(), n);
  }

  private static boolean placeByZone(Map<Integer, NodeView> nodes, int n) {
    for (int i = 0; i < n; i++) {
      NodeView node = nodes.get(i);
      if (node == null || !node.placesByZone()) {
        return false;
      }
    }
    return true;
  }

  /**
   * Undoes a change whose reads have not switched: the membership before it, published as the final
   * one (the old members as target, the others' pods kept until every node observed it), then the
   * usual cleanup, which drops what a shrink's streams brought.
   */
  private static Decision abort(Membership now) {
    return go(
        now.toBuilder()
            .epoch(now.getEpoch() + 1)
            .step(Step.FINAL)
            .members(Math.max(now.getMembers(), now.getTarget()))
            .target(now.getMembers())
            .targetAck(now.getAck())
            .targetFrom(now.getFrom())
            .targetZones(Zones.kept(now.getZones(), now.getMembers()))
            .lost(List.of())
            .build());
  }

  /** Members a shrink removes that the spec declares lost and the membership does not yet. */
  private static List<Integer> newlyLost(Membership now, Wanted wanted) {
    return wanted.lost().stream()
        .filter(i -> i >= now.getTarget() && i < now.getMembers() && !now.getLost().contains(i))
        .sorted()
        .toList();
  }

  private static Decision start(Membership now, Wanted wanted, Map<Integer, NodeView> nodes) {
    int members = now.getMembers();
    Replication inForce = now.replication();
    boolean otherReplication = !wanted.replication().equals(inForce);
    if (otherReplication && wanted.replication().from() <= members) {
      return go(
          now.toBuilder()
              .epoch(now.getEpoch() + 1)
              .step(Step.JOINING)
              .targetAck(wanted.replication().ack())
              .targetFrom(wanted.replication().from())
              .targetZones(zonesAfter(now, wanted, nodes, members))
              .build());
    }
    if (wanted.replicas() == members) {
      if (otherReplication) {
        return wait(
            now,
            "refused: the default from ("
                + wanted.replication().from()
                + ") exceeds the "
                + members
                + " members; raise replicas first");
      }
      List<String> zones = rezone(now, wanted, nodes);
      return zones == null
          ? go(now)
          : go(
              now.toBuilder()
                  .epoch(now.getEpoch() + 1)
                  .step(Step.JOINING)
                  .targetZones(zones)
                  .build());
    }
    if (wanted.replicas() < inForce.from()) {
      return wait(
          now,
          "refused: "
              + wanted.replicas()
              + " replicas is fewer than the default from ("
              + inForce.from()
              + "); lower defaultFrom first");
    }
    var resized = now.toBuilder().target(wanted.replicas());
    if (wanted.replicas() > members) {
      return go(resized.step(Step.STARTING).build());
    }
    var shrinking =
        resized
            .epoch(now.getEpoch() + 1)
            .step(Step.JOINING)
            .targetZones(zonesAfter(now, wanted, nodes, wanted.replicas()))
            .build();
    return go(shrinking.toBuilder().lost(newlyLost(shrinking, wanted)).build());
  }

  private static Decision starting(
      Membership now, Wanted wanted, Map<Integer, NodeView> nodes, Names names) {
    if (wanted.replicas() <= now.getMembers()) {
      // nothing was published
      return go(
          Membership.stable(now.getEpoch(), now.getMembers(), now.replication(), now.getZones()));
    }
    if (wanted.replicas() != now.getTarget()) {
      return go(now.toBuilder().target(wanted.replicas()).build());
    }
    for (int i = now.getMembers(); i < now.getTarget(); i++) {
      NodeView node = nodes.get(i);
      if (node == null || !node.podReady() || !node.answered()) {
        return wait(
            now, "waiting for the new pod " + names.of(i) + " to be Ready" + later(now, wanted));
      }
    }
    return go(
        now.toBuilder()
            .epoch(now.getEpoch() + 1)
            .step(Step.JOINING)
            .targetZones(zonesAfter(now, wanted, nodes, now.getTarget()))
            .build());
  }

  private static Decision streaming(
      Membership now, Wanted wanted, Map<Integer, NodeView> nodes, Names names) {
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
    return new Decision(now, again, List.of(), waiting + later(now, wanted));
  }

  private static Decision cleaning(
      Membership now, Wanted wanted, Map<Integer, NodeView> nodes, Names names) {
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
      return go(
          Membership.stable(
              now.getEpoch(), now.getTarget(), now.targetReplication(), now.getTargetZones()));
    }
    return new Decision(now, List.of(), again, waiting + later(now, wanted));
  }

  /** Null if every node concerned runs with the current epoch; else what it waits for. */
  private static String observed(Membership now, Map<Integer, NodeView> nodes, Names names) {
    for (int i = 0; i < now.nodes(); i++) {
      if (now.getLost().contains(i)) {
        continue; // gone for good: it observes nothing
      }
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

  /** What else is wanted, which waits: "" if nothing. */
  private static String later(Membership now, Wanted wanted) {
    String later = "";
    if (wanted.replicas() != now.getTarget()) {
      later += "; the change to " + wanted.replicas() + " replicas waits until this one is done";
    }
    if (!wanted.replication().equals(now.targetReplication())) {
      later += "; the change to ack/from " + wanted.replication() + " waits until this one is done";
    }
    return later;
  }

  private static Membership at(Membership now, long epoch, Step step) {
    return now.toBuilder().epoch(epoch).step(step).build();
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
