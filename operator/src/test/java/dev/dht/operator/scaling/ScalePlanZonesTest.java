package dev.dht.operator.scaling;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.contract.MembersFile;
import dev.dht.contract.MembersFile.Replication;
import dev.dht.operator.scaling.Membership.Step;
import dev.dht.operator.scaling.ScalePlan.Decision;
import dev.dht.operator.scaling.ScalePlan.Wanted;
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
    return PlanSteps.of(now, m -> ScalePlan.next(m, wanted, nodes(m, true), NAMES));
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
      assertFileGives(step);
    }
  }

  /**
   * The nodes read each member's zone in the ring that owns keys now and in the next one as the
   * membership has them: the current ring's members their zones (from the final membership on, the
   * target's), the next ring's members their target zones.
   */
  private static void assertFileGives(Membership m) {
    var members = MembersFile.parse(m.file(URLS)).members();
    boolean targetRing = m.getStep() == Step.FINAL || m.getStep() == Step.CLEANING_UP;
    for (int i = 0; i < members.size(); i++) {
      var member = members.get(i);
      if (member.state() != MembersFile.State.JOINING) {
        assertThat(member.zone())
            .as("%s: zone of %d", m, i)
            .isEqualTo(targetRing ? m.targetZone(i) : m.zone(i));
      }
      boolean inNext =
          member.state() != MembersFile.State.LEAVING && member.state() != MembersFile.State.LOST;
      if (inNext) {
        assertThat(member.zoneNext())
            .as("%s: next zone of %d", m, i)
            .isEqualTo(
                m.getStep() == Step.STABLE || m.getStep() == Step.STARTING
                    ? m.zone(i)
                    : m.targetZone(i));
      }
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
    steps.forEach(ScalePlanZonesTest::assertFileGives);
  }

  @Test
  void aGrowthWantedNoMoreIsUndoneWithTheZonesInForce() {
    Membership m = Membership.stable(4, 3, R23, List.of("a", "b", "c"));
    var grow = new Wanted(5, R23, Set.of(), ABCAB);
    Membership starting = ScalePlan.next(m, grow, nodes(m, true), NAMES).next();
    Membership joining = ScalePlan.next(starting, grow, nodes(starting, true), NAMES).next();
    var back = new Wanted(3, R23, Set.of(), ABCAB);
    Membership undone = ScalePlan.next(joining, back, nodes(joining, true), NAMES).next();
    assertThat(undone.getStep()).isEqualTo(Step.FINAL);
    assertThat(undone.file(URLS))
        .isEqualTo(
            "epoch 6\nreplication 2/3\nhttp://n0:1 zone=a\nhttp://n1:1 zone=b\n"
                + "http://n2:1 zone=c\n");
    List<Membership> rest = run(undone, back);
    assertThat(rest.getLast()).isEqualTo(Membership.stable(6, 3, R23, List.of("a", "b", "c")));

    Membership five = Membership.stable(4, 5, R23, List.of("a", "b", "c", "a", "b"));
    var shrink = new Wanted(3, R23, Set.of(), ABCAB);
    Membership leaving = ScalePlan.next(five, shrink, nodes(five, true), NAMES).next();
    var stay = new Wanted(5, R23, Set.of(), ABCAB);
    Membership kept = ScalePlan.next(leaving, stay, nodes(leaving, true), NAMES).next();
    assertThat(kept.getStep()).isEqualTo(Step.FINAL);
    assertThat(kept.changesZonesOnly()).as("a shrink undone is no change of zones").isFalse();
    assertThat(kept.change()).isEqualTo("a change of size (5 -> 5)");
  }

  @Test
  void aChangeOfAckFromTakesTheZonesSeen() {
    Membership m = Membership.stable(1, 5, R23);
    var wider = new Wanted(5, new Replication(3, 5), Set.of(), ABCAB);
    List<Membership> steps = run(m, wider);
    assertThat(steps.get(0).file(URLS)).contains("http://n3:1 next-zone=a\n");
    steps.forEach(ScalePlanZonesTest::assertFileGives);
    assertThat(steps.getLast())
        .isEqualTo(
            Membership.stable(4, 5, new Replication(3, 5), List.of("a", "b", "c", "a", "b")));
  }

  @Test
  void aStatusOfAnOlderOperatorReadsAsNoZones() throws Exception {
    var older =
        new com.fasterxml.jackson.databind.ObjectMapper()
            .readValue(
                "{\"epoch\":3,\"members\":3,\"target\":3,\"step\":\"STABLE\",\"ack\":2,"
                    + "\"from\":3,\"targetAck\":2,\"targetFrom\":3}",
                Membership.class);
    assertThat(older.file(URLS)).doesNotContain("zone");
    assertThat(ScalePlan.next(older, new Wanted(3, R23), nodes(older, true), NAMES).next())
        .isEqualTo(older);
    assertThat(ScalePlan.rezone(older, new Wanted(3, R23, Set.of(), ABC), nodes(older, true)))
        .containsExactly("a", "b", "c");
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
  void aChangeOfZonesGoesOnWhileWantedAndIsUndoneWhenTheLabelIsBack() {
    Membership m = Membership.stable(1, 3, R23, List.of("a", "b", "c"));
    var moved = Map.of(0, "a", 1, "b", 2, "d");
    Membership joining =
        ScalePlan.next(m, new Wanted(3, R23, Set.of(), moved), nodes(m, true), NAMES).next();
    assertThat(joining.file(URLS)).contains("http://n2:1 zone=c next-zone=d\n");

    Decision d =
        ScalePlan.next(joining, new Wanted(3, R23, Set.of(), moved), nodes(joining, true), NAMES);
    assertThat(d.next().getStep()).as("the zones are still wanted").isEqualTo(Step.STREAMING);
    Decision bigger =
        ScalePlan.next(d.next(), new Wanted(5, R23, Set.of(), moved), nodes(d.next(), true), NAMES);
    assertThat(bigger.next().getStep()).as("a growth waits").isEqualTo(Step.READING_NEXT);
    List<Membership> rest = run(bigger.next(), new Wanted(3, R23, Set.of(), moved));
    assertThat(rest.getLast()).isEqualTo(Membership.stable(4, 3, R23, List.of("a", "b", "d")));

    Decision back =
        ScalePlan.next(joining, new Wanted(3, R23, Set.of(), ABC), nodes(joining, true), NAMES);
    assertThat(back.next().getStep()).as("the label set back: undone").isEqualTo(Step.FINAL);
    assertThat(back.next().file(URLS)).contains("http://n2:1 zone=c\n");
    assertThat(run(back.next(), new Wanted(3, R23, Set.of(), ABC)).getLast())
        .isEqualTo(Membership.stable(3, 3, R23, List.of("a", "b", "c")));
  }

  @Test
  void aNodeThatLostItsLabelTakesItsMemberOutOfTheZones() {
    Membership m = Membership.stable(1, 3, R23, List.of("a", "b", "c"));
    var unlabelled = new Wanted(3, R23, Set.of(), Map.of(0, "a", 1, "b", 2, ""));
    assertThat(ScalePlan.rezone(m, unlabelled, nodes(m, true))).containsExactly("a", "b", "");
    List<Membership> steps = run(m, unlabelled);
    assertThat(steps.get(0).file(URLS)).contains("http://n2:1 zone=c next-zone=-\n");
    steps.forEach(ScalePlanZonesTest::assertFileGives);
    assertThat(steps.getLast().file(URLS)).endsWith("http://n1:1 zone=b\nhttp://n2:1\n");

    var none = new Wanted(3, R23, Set.of(), Map.of(0, "", 1, "", 2, ""));
    assertThat(run(m, none).getLast())
        .as("no label left: no zones")
        .isEqualTo(Membership.stable(4, 3, R23));
  }

  @Test
  void statusSaysWhetherTheReplicasSpanTheZones() {
    Membership m = Membership.stable(4, 3, R23, List.of("a", "b", "c"));
    var spread = ZoneSpread.of(m, ABC, "topology.kubernetes.io/zone", true, false, NAMES);
    assertThat(spread.isSpanned()).isTrue();
    assertThat(spread.getReplicaZones()).isEqualTo(3);
    assertThat(spread.getMessage()).isEqualTo("every key's 3 replicas are in 3 distinct zones");
    assertThat(spread.getZones())
        .containsExactly(
            new ZonesStatus.Zone("a", 1),
            new ZonesStatus.Zone("b", 1),
            new ZonesStatus.Zone("c", 1));

    var twoZones = Membership.stable(4, 3, R23, List.of("a", "b", "a"));
    var fewer = ZoneSpread.of(twoZones, Map.of(0, "a", 1, "b", 2, "a"), "zone", true, false, NAMES);
    assertThat(fewer.getReplicaZones()).isEqualTo(2);
    assertThat(fewer.isSpanned()).isTrue();

    var moved = ZoneSpread.of(m, Map.of(0, "a", 1, "b", 2, "d"), "zone", true, false, NAMES);
    assertThat(moved.isSpanned()).isFalse();
    assertThat(moved.getMessage()).startsWith("the members' zones are to change: demo-2 (d);");
    assertThat(
            ZoneSpread.of(m, Map.of(0, "a", 1, "b", 2, "d"), "zone", true, true, NAMES)
                .getMessage())
        .endsWith("the replicas move once the restore is done");

    var restarting = ZoneSpread.of(m, Map.of(0, "a", 1, "b"), "zone", true, false, NAMES);
    assertThat(restarting.isSpanned()).as("a pod being recreated moves nothing").isTrue();

    var growing =
        m.toBuilder()
            .epoch(5)
            .target(5)
            .step(Step.JOINING)
            .targetZones(List.of("a", "b", "c", "a", "b"))
            .build();
    assertThat(ZoneSpread.of(growing, ABCAB, "zone", true, false, NAMES).isSpanned())
        .as("a growth is no change of zones")
        .isTrue();

    var plain = Membership.stable(1, 3, R23);
    var none = ZoneSpread.of(plain, Map.of(0, "", 1, "", 2, ""), "zone", true, false, NAMES);
    assertThat(none.isSpanned()).isFalse();
    assertThat(none.getReplicaZones()).isEqualTo(1);
    assertThat(none.getMessage())
        .isEqualTo("placement has no zones: no member's node has the label zone");
    var off = ZoneSpread.of(plain, Map.of(0, "", 1, "", 2, ""), "zone", false, false, NAMES);
    assertThat(off.getMessage())
        .isEqualTo("placement has no zones: spec.topology.placeReplicasByZone is false");
    var unread = ZoneSpread.of(plain, Map.of(), "zone", true, false, NAMES);
    assertThat(unread.getMessage()).contains("may not get nodes");
  }
}
