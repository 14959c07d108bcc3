package dev.dht.operator.scaling;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.contract.MembersFile;
import dev.dht.contract.MembersFile.Replication;
import dev.dht.operator.scaling.Membership.Step;
import dev.dht.operator.scaling.ScalePlan.Decision;
import dev.dht.operator.scaling.ScalePlan.Wanted;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The members' zones in the plan: published once every node places by them, changed in steps. */
class ScalePlanZonesTest {
  private static final ScalePlan.Names NAMES = i -> "demo-" + i;
  private static final List<String> URLS =
      List.of("http://n0:1", "http://n1:1", "http://n2:1", "http://n3:1", "http://n4:1");
  private static final Replication R23 = new Replication(2, 3);
  private static final Map<Integer, String> ABC = Map.of(0, "a", 1, "b", 2, "c");
  private static final Map<Integer, String> ABCAB = Map.of(0, "a", 1, "b", 2, "c", 3, "a", 4, "b");

  /** Nodes 0..n-1 at the membership's epoch, done with what it asks; zone-aware or not. */
  private static Map<Integer, NodeView> nodes(Membership m, boolean zoneAware) {
    Map<Integer, NodeView> views = new HashMap<>();
    long e = m.getEpoch();
    for (int i = 0; i < m.pods(); i++) {
      var report = new NodeView.Report(0, 2, 3, 10, 100, List.of(), null, -1, zoneAware);
      views.put(i, new NodeView(i, true, e, e, false, e, false, report));
    }
    return views;
  }

  /** Each membership from {@code now} until stable with nothing else wanted, nodes zone-aware. */
  private static List<Membership> run(Membership now, Wanted wanted) {
    var steps = new ArrayList<Membership>();
    for (int i = 0; i < 20; i++) {
      Decision d = ScalePlan.next(now, wanted, nodes(now, true), NAMES);
      if (d.next().equals(now) && d.next().getStep() == Step.STABLE) {
        break;
      }
      now = d.next();
      steps.add(now);
    }
    return steps;
  }

  @Test
  void zonesSeenForTheFirstTimeTakeTheStepsOfAChangeAndEndPublished() {
    Membership m = Membership.stable(1, 3, R23);
    var wanted = new Wanted(3, R23, Set.of(), ABC);
    assertThat(ScalePlan.rezone(m, wanted, nodes(m, true))).containsExactly("a", "b", "c");

    List<Membership> steps = run(m, wanted);
    assertThat(steps)
        .extracting(Membership::getStep)
        .containsExactly(
            Step.JOINING,
            Step.STREAMING,
            Step.READING_NEXT,
            Step.FINAL,
            Step.CLEANING_UP,
            Step.STABLE);
    assertThat(steps.get(0).file(URLS))
        .as("the current ring without zones, the next one with them")
        .isEqualTo(
            "epoch 2\nreplication 2/3\nhttp://n0:1 next-zone=a\nhttp://n1:1 next-zone=b\n"
                + "http://n2:1 next-zone=c\n");
    assertThat(steps.get(3).file(URLS))
        .isEqualTo(
            "epoch 4\nreplication 2/3\nhttp://n0:1 zone=a\nhttp://n1:1 zone=b\n"
                + "http://n2:1 zone=c\n");
    assertThat(steps.getLast()).isEqualTo(Membership.stable(4, 3, R23, List.of("a", "b", "c")));
    assertThat(steps.getLast().file(URLS)).isEqualTo(steps.get(3).file(URLS));
    for (Membership step : steps) {
      MembersFile.parse(step.file(URLS)); // a file the nodes read
    }
  }

  @Test
  void noZoneIsPublishedUntilEveryNodePlacesByZoneAndEveryZoneIsKnown() {
    Membership m = Membership.stable(1, 3, R23);
    var wanted = new Wanted(3, R23, Set.of(), ABC);
    var older = nodes(m, true);
    older.put(2, new NodeView(2, true, 1, 1, false, 1, false)); // a node before zones
    assertThat(ScalePlan.rezone(m, wanted, older)).isNull();
    assertThat(ScalePlan.next(m, wanted, older, NAMES).next()).isEqualTo(m);

    var unscheduled = new Wanted(3, R23, Set.of(), Map.of(0, "a", 1, "b"));
    assertThat(ScalePlan.rezone(m, unscheduled, nodes(m, true))).isNull();

    var noLabels = new Wanted(3, R23, Set.of(), Map.of(0, "", 1, "", 2, ""));
    assertThat(ScalePlan.rezone(m, noLabels, nodes(m, true)))
        .as("nodes without the label: nothing to change")
        .isNull();
  }

  @Test
  void aGrowthGivesTheJoinersTheZonesOfTheirNodes() {
    Membership m = Membership.stable(4, 3, R23, List.of("a", "b", "c"));
    List<Membership> steps = run(m, new Wanted(5, R23, Set.of(), ABCAB));
    Membership joining = steps.get(1);
    assertThat(joining.getStep()).isEqualTo(Step.JOINING);
    assertThat(joining.file(URLS))
        .isEqualTo(
            "epoch 5\nreplication 2/3\nhttp://n0:1 zone=a\nhttp://n1:1 zone=b\n"
                + "http://n2:1 zone=c\nhttp://n3:1 joining zone=a\nhttp://n4:1 joining zone=b\n");
    assertThat(steps.getLast())
        .isEqualTo(Membership.stable(7, 5, R23, List.of("a", "b", "c", "a", "b")));
  }

  @Test
  void aGrowthAmongNodesBeforeZonesPublishesNone() {
    Membership m = Membership.stable(1, 3, R23);
    var wanted = new Wanted(5, R23, Set.of(), ABCAB);
    Membership starting = ScalePlan.next(m, wanted, nodes(m, false), NAMES).next();
    Membership joining = ScalePlan.next(starting, wanted, nodes(starting, false), NAMES).next();
    assertThat(joining.getStep()).isEqualTo(Step.JOINING);
    assertThat(joining.file(URLS)).doesNotContain("zone=");
  }

  @Test
  void aShrinkKeepsTheRemainingMembersZones() {
    Membership m = Membership.stable(4, 5, R23, List.of("a", "b", "c", "a", "b"));
    List<Membership> steps = run(m, new Wanted(3, R23, Set.of(), ABCAB));
    assertThat(steps.get(0).file(URLS))
        .isEqualTo(
            "epoch 5\nreplication 2/3\nhttp://n0:1 zone=a\nhttp://n1:1 zone=b\n"
                + "http://n2:1 zone=c\nhttp://n3:1 leaving zone=a\nhttp://n4:1 leaving zone=b\n");
    assertThat(steps.getLast()).isEqualTo(Membership.stable(7, 3, R23, List.of("a", "b", "c")));
  }

  @Test
  void aChangeOfZonesIsNotUndoneAndAChangeOfSizeWaitsForIt() {
    Membership m = Membership.stable(1, 3, R23, List.of("a", "b", "c"));
    var moved = Map.of(0, "a", 1, "b", 2, "d");
    Membership joining =
        ScalePlan.next(m, new Wanted(3, R23, Set.of(), moved), nodes(m, true), NAMES).next();
    assertThat(joining.file(URLS)).contains("http://n2:1 zone=c next-zone=d\n");

    Decision d =
        ScalePlan.next(joining, new Wanted(5, R23, Set.of(), moved), nodes(joining, true), NAMES);
    assertThat(d.next().getStep()).as("not aborted").isEqualTo(Step.STREAMING);
    assertThat(d.waiting()).isNull();
    List<Membership> rest = run(d.next(), new Wanted(3, R23, Set.of(), moved));
    assertThat(rest.getLast()).isEqualTo(Membership.stable(4, 3, R23, List.of("a", "b", "d")));
  }

  @Test
  void aNodeThatLostItsLabelKeepsItsZone() {
    Membership m = Membership.stable(1, 3, R23, List.of("a", "b", "c"));
    var unlabelled = new Wanted(3, R23, Set.of(), Map.of(0, "a", 1, "b", 2, ""));
    assertThat(ScalePlan.rezone(m, unlabelled, nodes(m, true))).isNull();
  }

  @Test
  void statusSaysWhetherTheReplicasSpanTheZones() {
    Membership m = Membership.stable(4, 3, R23, List.of("a", "b", "c"));
    var spread = ZoneSpread.of(m, ABC, "topology.kubernetes.io/zone", NAMES);
    assertThat(spread.isSpanned()).isTrue();
    assertThat(spread.getReplicaZones()).isEqualTo(3);
    assertThat(spread.getMessage()).isEqualTo("every key's 3 replicas are in 3 distinct zones");
    assertThat(spread.getZones())
        .containsExactly(
            new ZonesStatus.Zone("a", 1),
            new ZonesStatus.Zone("b", 1),
            new ZonesStatus.Zone("c", 1));

    var twoZones = Membership.stable(4, 3, R23, List.of("a", "b", "a"));
    var fewer = ZoneSpread.of(twoZones, Map.of(0, "a", 1, "b", 2, "a"), "zone", NAMES);
    assertThat(fewer.getReplicaZones()).isEqualTo(2);
    assertThat(fewer.isSpanned()).isTrue();

    var moved = ZoneSpread.of(m, Map.of(0, "a", 1, "b", 2, "d"), "zone", NAMES);
    assertThat(moved.isSpanned()).isFalse();
    assertThat(moved.getMessage()).startsWith("the members' nodes are in zones [a, b, d]");

    var unknown = ZoneSpread.of(m, Map.of(0, "a", 1, "b"), "zone", NAMES);
    assertThat(unknown.getMessage()).contains("demo-2");

    var none =
        ZoneSpread.of(Membership.stable(1, 3, R23), Map.of(0, "", 1, "", 2, ""), "zone", NAMES);
    assertThat(none.isSpanned()).isFalse();
    assertThat(none.getReplicaZones()).isEqualTo(1);
    assertThat(none.getMessage())
        .isEqualTo("no member's node has the label zone: placement has no zones");
  }
}
