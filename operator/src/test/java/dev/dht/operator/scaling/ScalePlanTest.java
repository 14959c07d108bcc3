package dev.dht.operator.scaling;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.contract.MembersFile;
import dev.dht.contract.MembersFile.Replication;
import dev.dht.operator.scaling.Membership.Step;
import dev.dht.operator.scaling.ScalePlan.Decision;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class ScalePlanTest {
  private static final ScalePlan.Names NAMES = i -> "demo-" + i;
  private static final List<String> URLS =
      List.of("http://n0:1", "http://n1:1", "http://n2:1", "http://n3:1", "http://n4:1");
  private static final String FIVE =
      "http://n0:1\nhttp://n1:1\nhttp://n2:1\nhttp://n3:1\nhttp://n4:1\n";
  private static final Replication R23 = new Replication(2, 3);
  private static final Replication R35 = new Replication(3, 5);

  /** Nodes 0..n-1, all Ready, at {@code epoch}, with the given stream and cleanup epochs. */
  private static Map<Integer, NodeView> nodes(int n, long epoch, long streamed, long cleaned) {
    Map<Integer, NodeView> views = new HashMap<>();
    for (int i = 0; i < n; i++) {
      views.put(i, new NodeView(i, true, epoch, streamed, false, cleaned, false));
    }
    return views;
  }

  /** Nodes that did all they were asked: Ready, at the epoch, streamed and cleaned up for it. */
  private static Map<Integer, NodeView> done(Membership m) {
    return nodes(m.pods(), m.getEpoch(), m.getEpoch(), m.getEpoch());
  }

  /** At 2/3, the default ack/from wanted of most tests. */
  private static Decision step(Membership now, int desired, Map<Integer, NodeView> nodes) {
    return ScalePlan.next(now, desired, R23, nodes, NAMES);
  }

  /** A change of size from a stable membership at 2/3. */
  private static Membership resizing(long epoch, int members, int target, Step step) {
    return Membership.stable(epoch, members, R23).toBuilder().target(target).step(step).build();
  }

  /**
   * Each membership the plan goes through, from {@code now} until it is stable with nothing else
   * wanted (at most 20 steps), its nodes doing all they are asked.
   */
  private static List<Membership> run(Membership now, int desired, Replication wanted) {
    return PlanSteps.of(now, m -> ScalePlan.next(m, desired, wanted, done(m), NAMES));
  }

  @Test
  void growingThreeToFiveGoesThroughEveryStepEachObservedBeforeTheNext() {
    Membership m = Membership.stable(1, 3, R23);
    assertThat(m.file(URLS))
        .isEqualTo("epoch 1\nreplication 2/3\nhttp://n0:1\nhttp://n1:1\nhttp://n2:1\n");

    Decision d = step(m, 5, nodes(3, 1, -1, -1));
    assertThat(d.next().getStep()).isEqualTo(Step.STARTING);
    assertThat(d.next().pods()).isEqualTo(5);
    assertThat(d.next().file(URLS)).as("the new pods are not listed yet").isEqualTo(m.file(URLS));

    Map<Integer, NodeView> views = nodes(5, 1, -1, -1);
    views.put(4, new NodeView(4, false, 1, -1, false, -1, false));
    Decision notReady = step(d.next(), 5, views);
    assertThat(notReady.next()).isEqualTo(d.next());
    assertThat(notReady.waiting()).contains("demo-4").contains("Ready");

    d = step(d.next(), 5, nodes(5, 1, -1, -1));
    assertThat(d.next().getStep()).isEqualTo(Step.JOINING);
    assertThat(d.next().getEpoch()).isEqualTo(2);
    assertThat(d.next().file(URLS))
        .isEqualTo(
            "epoch 2\nreplication 2/3\nhttp://n0:1\nhttp://n1:1\nhttp://n2:1\nhttp://n3:1 joining\n"
                + "http://n4:1 joining\n");

    Map<Integer, NodeView> lagging = nodes(5, 2, -1, -1);
    lagging.put(1, new NodeView(1, true, 1, -1, false, -1, false));
    assertThat(step(d.next(), 5, lagging).waiting()).contains("demo-1").contains("epoch 2");

    d = step(d.next(), 5, nodes(5, 2, -1, -1));
    assertThat(d.next().getStep()).isEqualTo(Step.STREAMING);
    assertThat(d.stream()).containsExactly(0, 1, 2, 3, 4);

    Map<Integer, NodeView> streaming = nodes(5, 2, 2, -1);
    streaming.put(3, new NodeView(3, true, 2, -1, true, -1, false));
    Decision waits = step(d.next(), 5, streaming);
    assertThat(waits.waiting()).contains("demo-3").contains("stream");
    assertThat(waits.stream()).as("a running stream is not asked again").isEmpty();
    streaming.put(3, new NodeView(3, true, 2, -1, false, -1, false));
    assertThat(step(d.next(), 5, streaming).stream()).as("a failed one is").containsExactly(3);

    d = step(d.next(), 5, nodes(5, 2, 2, -1));
    assertThat(d.next().getStep()).isEqualTo(Step.READING_NEXT);
    assertThat(d.next().file(URLS))
        .startsWith("epoch 3\nreplication 2/3\nread-from next\n")
        .contains("n4:1 joining");

    d = step(d.next(), 5, nodes(5, 3, 2, -1));
    assertThat(d.next().getStep()).isEqualTo(Step.FINAL);
    assertThat(d.next().file(URLS)).isEqualTo("epoch 4\nreplication 2/3\n" + FIVE);

    d = step(d.next(), 5, nodes(5, 4, 2, -1));
    assertThat(d.next().getStep()).isEqualTo(Step.CLEANING_UP);
    assertThat(d.cleanup()).containsExactly(0, 1, 2, 3, 4);

    d = step(d.next(), 5, nodes(5, 4, 2, 4));
    assertThat(d.next()).isEqualTo(Membership.stable(4, 5, R23));
    assertThat(d.waiting()).isNull();
  }

  @Test
  void shrinkingKeepsTheLeavingPodsUntilEveryMemberObservedTheFinalMembership() {
    Decision d = step(Membership.stable(4, 5, R23), 3, nodes(5, 4, -1, -1));
    assertThat(d.next().getStep()).isEqualTo(Step.JOINING);
    assertThat(d.next().file(URLS)).contains("n3:1 leaving").contains("n4:1 leaving");
    d = step(d.next(), 3, nodes(5, 5, -1, -1));
    assertThat(d.stream()).as("the members that stay pull").containsExactly(0, 1, 2);
    d = step(d.next(), 3, nodes(5, 5, 5, -1));
    d = step(d.next(), 3, nodes(5, 6, 5, -1));
    assertThat(d.next().getStep()).isEqualTo(Step.FINAL);
    assertThat(d.next().pods()).as("leaving pods still run").isEqualTo(5);
    assertThat(d.next().file(URLS))
        .isEqualTo("epoch 7\nreplication 2/3\nhttp://n0:1\nhttp://n1:1\nhttp://n2:1\n");
    d = step(d.next(), 3, nodes(3, 7, 5, -1));
    assertThat(d.next().getStep()).isEqualTo(Step.CLEANING_UP);
    assertThat(d.next().pods()).isEqualTo(3);
    d = step(d.next(), 3, nodes(3, 7, 5, 7));
    assertThat(d.next()).isEqualTo(Membership.stable(7, 3, R23));
  }

  @Test
  void aChangeDuringAChangeWaitsUnlessNothingWasPublishedYet() {
    Membership starting = resizing(1, 3, 5, Step.STARTING);
    assertThat(step(starting, 4, nodes(3, 1, -1, -1)).next())
        .as("retargeted while the pods start")
        .isEqualTo(resizing(1, 3, 4, Step.STARTING));
    assertThat(step(starting, 3, nodes(3, 1, -1, -1)).next())
        .as("dropped: nothing was published")
        .isEqualTo(Membership.stable(1, 3, R23));

    Membership joining = resizing(2, 3, 5, Step.JOINING);
    Map<Integer, NodeView> lagging = nodes(5, 1, -1, -1);
    Decision d = step(joining, 4, lagging);
    assertThat(d.next()).isEqualTo(joining);
    assertThat(d.waiting()).contains("the change to 4 replicas waits");
  }

  @Test
  void aGrowthWantedNoMoreIsUndoneBeforeReadsSwitchKeepingItsPodsUntilObserved() {
    Membership joining = resizing(2, 3, 5, Step.JOINING);
    Map<Integer, NodeView> lagging = nodes(5, 2, -1, -1);
    lagging.put(2, new NodeView(2, true, 1, -1, false, -1, false));
    assertThat(step(joining, 3, lagging).next())
        .as("the joint epoch observed first")
        .isEqualTo(joining);

    Decision d = step(joining, 3, nodes(5, 2, -1, -1));
    assertThat(d.next().getStep()).isEqualTo(Step.FINAL);
    assertThat(d.next().getEpoch()).isEqualTo(3);
    assertThat(d.next().file(URLS))
        .as("the membership before the change")
        .isEqualTo("epoch 3\nreplication 2/3\nhttp://n0:1\nhttp://n1:1\nhttp://n2:1\n");
    assertThat(d.next().pods()).as("the new pods run until every node observed it").isEqualTo(5);
    List<Membership> rest = run(d.next(), 3, R23);
    assertThat(rest).extracting(Membership::getStep).containsExactly(Step.CLEANING_UP, Step.STABLE);
    assertThat(rest.getLast()).isEqualTo(Membership.stable(3, 3, R23));

    Decision fromStreaming = step(resizing(2, 3, 5, Step.STREAMING), 3, nodes(5, 2, -1, -1));
    assertThat(fromStreaming.next().getStep()).isEqualTo(Step.FINAL);
    assertThat(fromStreaming.stream()).as("no stream asked").isEmpty();

    Decision back = step(resizing(3, 3, 5, Step.READING_NEXT), 3, nodes(5, 3, 2, -1));
    assertThat(back.next().getStep())
        .as("from reads on the next ring, reads go back to the current one first")
        .isEqualTo(Step.JOINING);
    assertThat(back.next().file(URLS))
        .startsWith("epoch 4\nreplication 2/3\nhttp")
        .contains("joining");
    d = step(back.next(), 3, nodes(5, 4, 2, -1));
    assertThat(d.next().getStep()).isEqualTo(Step.FINAL);
    assertThat(d.next().getTarget()).isEqualTo(3);
  }

  @Test
  void aShrinkOrAChangeOfAckFromWantedNoMoreIsUndone() {
    Decision d = step(resizing(2, 5, 3, Step.STREAMING), 5, nodes(5, 2, -1, -1));
    assertThat(d.next().getStep()).isEqualTo(Step.FINAL);
    assertThat(d.next().file(URLS)).isEqualTo("epoch 3\nreplication 2/3\n" + FIVE);
    assertThat(run(d.next(), 5, R23).getLast()).isEqualTo(Membership.stable(3, 5, R23));

    Membership widening =
        Membership.stable(1, 5, R23).toBuilder()
            .epoch(2)
            .step(Step.STREAMING)
            .targetAck(3)
            .targetFrom(5)
            .build();
    d = step(widening, 5, nodes(5, 2, -1, -1));
    assertThat(d.next().getStep()).isEqualTo(Step.FINAL);
    assertThat(d.next().file(URLS)).isEqualTo("epoch 3\nreplication 2/3\n" + FIVE);
  }

  @Test
  void aShrinkWaitsForNoMemberDeclaredLostAndPublishesItAsLost() {
    var lostFour = new ScalePlan.Wanted(3, R23, Set.of(4, 1)); // 1 stays: not a leaving one
    Decision d = ScalePlan.next(Membership.stable(1, 5, R23), lostFour, nodes(5, 1, -1, -1), NAMES);
    assertThat(d.next().getLost()).containsExactly(4);
    assertThat(d.next().file(URLS))
        .isEqualTo(
            "epoch 2\nreplication 2/3\nhttp://n0:1\nhttp://n1:1\nhttp://n2:1\nhttp://n3:1"
                + " leaving\nhttp://n4:1 lost\n");

    Map<Integer, NodeView> withoutFour = nodes(4, 2, -1, -1);
    d = ScalePlan.next(d.next(), lostFour, withoutFour, NAMES);
    assertThat(d.next().getStep()).as("node 4 observes nothing").isEqualTo(Step.STREAMING);
    assertThat(d.stream()).containsExactly(0, 1, 2);

    Decision later =
        ScalePlan.next(
            d.next(), new ScalePlan.Wanted(3, R23, Set.of(3, 4)), nodes(4, 2, 2, -1), NAMES);
    assertThat(later.next().getEpoch()).as("another file, another epoch").isEqualTo(3);
    assertThat(later.next().getStep()).isEqualTo(Step.STREAMING);
    assertThat(later.next().getLost()).containsExactly(4, 3);
    assertThat(later.next().file(URLS)).contains("n3:1 lost\nhttp://n4:1 lost\n");

    Membership now = later.next();
    for (int i = 0; i < 10 && now.getStep() != Step.STABLE; i++) {
      var views = nodes(3, now.getEpoch(), now.getEpoch(), now.getEpoch());
      now = ScalePlan.next(now, new ScalePlan.Wanted(3, R23, Set.of(3, 4)), views, NAMES).next();
    }
    assertThat(now).isEqualTo(Membership.stable(now.getEpoch(), 3, R23));
    assertThat(now.getLost()).isEmpty();
  }

  @Test
  void fewerReplicasThanTheDefaultFromAreRefused() {
    Decision d = step(Membership.stable(1, 3, R23), 2, nodes(3, 1, -1, -1));
    assertThat(d.next()).isEqualTo(Membership.stable(1, 3, R23));
    assertThat(d.waiting()).startsWith("refused").contains("default from (3)");
  }

  @Test
  void wideningTwoOfThreeToThreeOfFiveFillsTheWiderReplicaSetsBeforeReadsUseThem() {
    Membership m = Membership.stable(4, 5, R23);
    Decision d = ScalePlan.next(m, 5, R35, nodes(5, 4, -1, -1), NAMES);
    assertThat(d.next().getStep()).isEqualTo(Step.JOINING);
    assertThat(d.next().getEpoch()).isEqualTo(5);
    assertThat(d.next().pods()).as("no pod starts or stops").isEqualTo(5);
    assertThat(d.next().file(URLS))
        .as("writes go to the replicas of both")
        .isEqualTo("epoch 5\nreplication 2/3\nnext-replication 3/5\n" + FIVE);

    Map<Integer, NodeView> lagging = nodes(5, 5, -1, -1);
    lagging.put(2, new NodeView(2, true, 4, -1, false, -1, false));
    assertThat(ScalePlan.next(d.next(), 5, R35, lagging, NAMES).waiting())
        .isEqualTo("waiting for demo-2 to observe membership epoch 5");

    d = ScalePlan.next(d.next(), 5, R35, nodes(5, 5, -1, -1), NAMES);
    assertThat(d.next().getStep()).isEqualTo(Step.STREAMING);
    assertThat(d.stream()).as("each node pulls the keys it gains").containsExactly(0, 1, 2, 3, 4);
    assertThat(ScalePlan.next(d.next(), 5, R35, nodes(5, 5, -1, -1), NAMES).waiting())
        .isEqualTo("waiting for demo-0 to stream the keys it will own");

    d = ScalePlan.next(d.next(), 5, R35, nodes(5, 5, 5, -1), NAMES);
    assertThat(d.next().getStep()).isEqualTo(Step.READING_NEXT);
    assertThat(d.next().file(URLS))
        .isEqualTo("epoch 6\nreplication 2/3\nnext-replication 3/5\nread-from next\n" + FIVE);

    d = ScalePlan.next(d.next(), 5, R35, nodes(5, 6, 5, -1), NAMES);
    assertThat(d.next().getStep()).isEqualTo(Step.FINAL);
    assertThat(d.next().file(URLS)).isEqualTo("epoch 7\nreplication 3/5\n" + FIVE);

    d = ScalePlan.next(d.next(), 5, R35, nodes(5, 7, 5, -1), NAMES);
    assertThat(d.next().getStep()).isEqualTo(Step.CLEANING_UP);
    assertThat(d.cleanup()).containsExactly(0, 1, 2, 3, 4);
    assertThat(d.next().file(URLS)).isEqualTo("epoch 7\nreplication 3/5\n" + FIVE);

    d = ScalePlan.next(d.next(), 5, R35, nodes(5, 7, 5, 7), NAMES);
    assertThat(d.next()).isEqualTo(Membership.stable(7, 5, R35));
    assertThat(d.waiting()).isNull();
    assertThat(ScalePlan.next(d.next(), 5, R35, nodes(5, 7, 5, 7), NAMES).next())
        .as("nothing more to do")
        .isEqualTo(d.next());
  }

  @Test
  void fiveToThreeReplicasWithFromFiveToThreeNarrowsFirstThenShrinks() {
    Membership m = Membership.stable(1, 5, R35);
    Decision d = ScalePlan.next(m, 3, R23, nodes(5, 1, -1, -1), NAMES);
    assertThat(d.waiting()).as("not refused: the narrowing comes first").isNull();
    assertThat(d.next().getStep()).isEqualTo(Step.JOINING);
    assertThat(d.next().getTarget()).isEqualTo(5);
    assertThat(d.next().file(URLS))
        .isEqualTo("epoch 2\nreplication 3/5\nnext-replication 2/3\n" + FIVE);
    assertThat(ScalePlan.next(d.next(), 3, R23, nodes(5, 1, -1, -1), NAMES).waiting())
        .endsWith("; the change to 3 replicas waits until this one is done");

    List<Membership> steps = run(m, 3, R23);
    assertThat(steps)
        .extracting(Membership::getStep)
        .containsExactly(
            Step.JOINING,
            Step.STREAMING,
            Step.READING_NEXT,
            Step.FINAL,
            Step.CLEANING_UP,
            Step.STABLE,
            Step.JOINING,
            Step.STREAMING,
            Step.READING_NEXT,
            Step.FINAL,
            Step.CLEANING_UP,
            Step.STABLE);
    assertThat(steps.get(5)).isEqualTo(Membership.stable(4, 5, R23));
    assertThat(steps.get(6).file(URLS)).contains("n3:1 leaving").doesNotContain("next-replication");
    assertThat(steps.getLast()).isEqualTo(Membership.stable(7, 3, R23));
  }

  @Test
  void aChangeOfAckFromWantedDuringAChangeOfSizeWaits() {
    Membership starting = resizing(1, 3, 5, Step.STARTING);
    Map<Integer, NodeView> notReady = nodes(5, 1, -1, -1);
    notReady.put(3, new NodeView(3, false, 1, -1, false, -1, false));
    assertThat(ScalePlan.next(starting, 5, R35, notReady, NAMES).waiting())
        .isEqualTo(
            "waiting for the new pod demo-3 to be Ready; the change to ack/from 3/5 waits until"
                + " this one is done");

    Membership joining = resizing(2, 3, 5, Step.JOINING);
    Decision d = ScalePlan.next(joining, 5, R35, nodes(5, 1, -1, -1), NAMES);
    assertThat(d.next()).isEqualTo(joining);
    assertThat(d.waiting())
        .isEqualTo(
            "waiting for demo-0 to observe membership epoch 2; the change to ack/from 3/5 waits"
                + " until this one is done");
    assertThat(d.next().file(URLS)).doesNotContain("next-replication");
  }

  @Test
  void aChangeOfSizeWantedDuringAChangeOfAckFromWaits() {
    Membership widening =
        Membership.stable(4, 5, R23).toBuilder()
            .epoch(5)
            .step(Step.JOINING)
            .targetAck(3)
            .targetFrom(5)
            .build();
    Decision d = ScalePlan.next(widening, 4, R35, nodes(5, 4, -1, -1), NAMES);
    assertThat(d.next()).isEqualTo(widening);
    assertThat(d.waiting())
        .isEqualTo(
            "waiting for demo-0 to observe membership epoch 5; the change to 4 replicas waits"
                + " until this one is done");
    assertThat(ScalePlan.next(widening, 5, new Replication(2, 5), nodes(5, 4, -1, -1), NAMES))
        .extracting(Decision::waiting)
        .asString()
        .endsWith("; the change to ack/from 2/5 waits until this one is done");
  }

  @Test
  void aFromBeyondTheMembersWaitsForTheGrowth() {
    Membership m = Membership.stable(1, 3, R23);
    Decision d = ScalePlan.next(m, 5, R35, nodes(3, 1, -1, -1), NAMES);
    assertThat(d.next()).as("the growth first").isEqualTo(resizing(1, 3, 5, Step.STARTING));

    List<Membership> steps = run(m, 5, R35);
    assertThat(steps.get(6)).as("then the widening").isEqualTo(Membership.stable(4, 5, R23));
    assertThat(steps.get(7).file(URLS))
        .startsWith("epoch 5\nreplication 2/3\nnext-replication 3/5\n");
    assertThat(steps.getLast()).isEqualTo(Membership.stable(7, 5, R35));

    assertThat(ScalePlan.next(m, 3, R35, nodes(3, 1, -1, -1), NAMES).waiting())
        .as("with no growth wanted")
        .isEqualTo("refused: the default from (5) exceeds the 3 members; raise replicas first");
  }

  @Test
  void aStatusOfAnOlderOperatorStartsNoChange() {
    // an older operator kept no ack/from in the membership: the nodes were given the spec's
    Membership older = Membership.builder().epoch(3).members(3).target(3).build();
    assertThat(older.replication()).isNull();
    Membership known = older.orReplication(R23);
    assertThat(known).isEqualTo(Membership.stable(3, 3, R23));
    Decision d = step(known, 3, nodes(3, 3, -1, -1));
    assertThat(d.next()).isEqualTo(known);
    assertThat(d.waiting()).isNull();

    Membership olderJoining =
        Membership.builder().epoch(4).members(3).target(5).step(Step.JOINING).build();
    assertThat(olderJoining.orReplication(R23)).isEqualTo(resizing(4, 3, 5, Step.JOINING));
    assertThat(olderJoining.orReplication(R23).file(URLS)).doesNotContain("next-replication");
  }

  /**
   * Whatever the start and what is wanted (a from no larger than the replicas, as the CRD demands),
   * the plan ends stable with it, and each step's file says what the nodes need: the same epoch
   * always with the same file, and each ring with no fewer members than its from.
   */
  @Property
  void everyChangeEndsWithWhatIsWantedThroughFilesTheNodesCanFollow(
      @ForAll @IntRange(min = 1, max = 5) int members,
      @ForAll @IntRange(min = 1, max = 5) int from,
      @ForAll @IntRange(min = 1, max = 5) int ack,
      @ForAll @IntRange(min = 1, max = 5) int desired,
      @ForAll @IntRange(min = 1, max = 5) int wantedFrom,
      @ForAll @IntRange(min = 1, max = 5) int wantedAck) {
    var inForce = new Replication(Math.min(ack, Math.min(from, members)), Math.min(from, members));
    int fromWanted = Math.min(wantedFrom, desired);
    var wanted = new Replication(Math.min(wantedAck, fromWanted), fromWanted);
    Membership m = Membership.stable(1, members, inForce);

    List<Membership> steps = run(m, desired, wanted);

    Membership last = steps.isEmpty() ? m : steps.getLast();
    assertThat(last).isEqualTo(Membership.stable(last.getEpoch(), desired, wanted));
    Map<Long, String> files = new HashMap<>();
    for (Membership step : steps) {
      String file = step.file(URLS);
      assertThat(files.putIfAbsent(step.getEpoch(), file)).isIn(null, file);
      var parsed = MembersFile.parse(file);
      long current =
          parsed.members().stream().filter(s -> s.state() != MembersFile.State.JOINING).count();
      long next =
          parsed.members().stream().filter(s -> s.state() != MembersFile.State.LEAVING).count();
      assertThat(parsed.replication().from()).isLessThanOrEqualTo((int) current);
      var nextReplication =
          parsed.nextReplication() != null ? parsed.nextReplication() : parsed.replication();
      assertThat(nextReplication.from()).isLessThanOrEqualTo((int) next);
    }
  }

  /**
   * Whatever change is under way and however far it went, wanting the state before it again ends
   * stable with that state, and no epoch stands for two files.
   */
  @Property
  void aChangeWantedNoMoreEndsWhereItBeganAtAnyStep(
      @ForAll @IntRange(min = 2, max = 5) int members,
      @ForAll @IntRange(min = 2, max = 5) int desired,
      @ForAll @IntRange(min = 2, max = 5) int wantedFrom,
      @ForAll @IntRange(min = 0, max = 7) int stepsBeforeRevert) {
    var inForce = new Replication(2, 2);
    int fromWanted = Math.min(wantedFrom, desired);
    var wanted = new Replication(Math.min(2, fromWanted), fromWanted);
    Membership start = Membership.stable(1, members, inForce);
    List<Membership> forward = run(start, desired, wanted);
    Membership reached =
        stepsBeforeRevert == 0 || forward.isEmpty()
            ? start
            : forward.get(Math.min(stepsBeforeRevert, forward.size()) - 1);

    List<Membership> back = run(reached, members, inForce);

    Membership last = back.isEmpty() ? reached : back.getLast();
    assertThat(last).isEqualTo(Membership.stable(last.getEpoch(), members, inForce));
    Map<Long, String> files = new HashMap<>();
    for (Membership step : concat(forward.subList(0, forward.indexOf(reached) + 1), back)) {
      assertThat(files.putIfAbsent(step.getEpoch(), step.file(URLS))).isIn(null, step.file(URLS));
    }
  }

  private static List<Membership> concat(List<Membership> first, List<Membership> then) {
    var all = new ArrayList<>(first);
    all.addAll(then);
    return all;
  }
}
