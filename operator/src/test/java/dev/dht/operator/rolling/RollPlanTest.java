package dev.dht.operator.rolling;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.contract.MembersFile.Replication;
import dev.dht.operator.scaling.Membership;
import dev.dht.operator.scaling.NodeView;
import dev.dht.operator.scaling.ScalePlan;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class RollPlanTest {
  private static final PodRevision OLD = PodRevision.parse("image=0a0a0a0a inputs=1b1b1b1b");
  private static final PodRevision NEW = PodRevision.parse("image=2c2c2c2c inputs=1b1b1b1b");
  private static final DesiredRevision DESIRED = new DesiredRevision(NEW, true);
  private static final Replication R23 = new Replication(2, 3);
  private static final Membership STABLE = Membership.stable(1, 3, R23);
  private static final Membership JOINING =
      STABLE.toBuilder().epoch(2).target(4).step(Membership.Step.JOINING).build();

  private static PodState pod(int i, boolean ready, PodRevision revision) {
    return new PodState(i, "demo-" + i, true, ready, false, revision);
  }

  private static NodeView node(int i, long hints, boolean streaming) {
    return new NodeView(
        i, true, 1, -1, streaming, -1, false, new NodeView.Report(hints, 2, 3, 10, 100));
  }

  private static Map<Integer, NodeView> caughtUp(int n) {
    Map<Integer, NodeView> nodes = new TreeMap<>();
    for (int i = 0; i < n; i++) {
      nodes.put(i, node(i, 0, false));
    }
    return nodes;
  }

  private static RollPlan.Decision next(List<PodState> pods, Map<Integer, NodeView> nodes) {
    return RollPlan.next(new RollPlan.Input(pods, nodes, DESIRED, 2, 3, STABLE));
  }

  @Test
  void nothingOutdatedIsDone() {
    var pods = List.of(pod(0, true, NEW), pod(1, true, NEW), pod(2, true, NEW));
    assertThat(next(pods, caughtUp(3))).isInstanceOf(RollPlan.Done.class);
  }

  @Test
  void restartsTheHighestOutdatedPodWhenAllAreUpAndCaughtUp() {
    var pods = List.of(pod(0, true, OLD), pod(1, true, OLD), pod(2, true, NEW));
    var decision = next(pods, caughtUp(3));
    assertThat(decision).isInstanceOf(RollPlan.Restart.class);
    assertThat(((RollPlan.Restart) decision).pod().name()).isEqualTo("demo-1");
    assertThat(((RollPlan.Restart) decision).reason())
        .isEqualTo("created with other settings: image");
    assertThat(decision.outdated()).containsExactly("demo-0", "demo-1");
  }

  @Test
  void waitsForAPodThatIsNotReadyEvenIfItIsCurrent() {
    var pods = List.of(pod(0, false, NEW), pod(1, true, OLD), pod(2, true, OLD));
    var decision = next(pods, caughtUp(3));
    assertThat(decision).isInstanceOf(RollPlan.Wait.class);
    assertThat(((RollPlan.Wait) decision).why()).isEqualTo("waiting for demo-0 to be Ready");
  }

  @Test
  void restartsAnOutdatedPodThatIsNotReadyFirst() {
    var pods = List.of(pod(0, false, OLD), pod(1, true, OLD), pod(2, true, OLD));
    var decision = next(pods, caughtUp(3));
    assertThat(((RollPlan.Restart) decision).pod().name()).isEqualTo("demo-0");
  }

  @Test
  void neverStacksTwoPodsDown() {
    var pods = List.of(pod(0, false, OLD), pod(1, false, OLD), pod(2, true, OLD));
    assertThat(next(pods, caughtUp(3))).isInstanceOf(RollPlan.Wait.class);
    var missing = List.of(PodState.missing(0, "demo-0"), pod(1, false, OLD), pod(2, true, OLD));
    assertThat(next(missing, caughtUp(3))).isInstanceOf(RollPlan.Wait.class);
  }

  @Test
  void waitsForHintsAndStreamsToBeHandedOver() {
    var pods = List.of(pod(0, true, OLD), pod(1, true, NEW), pod(2, true, NEW));
    var hints = caughtUp(3);
    hints.put(2, node(2, 7, false));
    assertThat(((RollPlan.Wait) next(pods, hints)).why())
        .isEqualTo("waiting for demo-2 to catch up: 7 hints to hand over");
    var streaming = caughtUp(3);
    streaming.put(1, node(1, 0, true));
    assertThat(((RollPlan.Wait) next(pods, streaming)).why()).contains("demo-1", "streaming");
    var silent = caughtUp(3);
    silent.put(0, NodeView.unreachable(0, true));
    assertThat(((RollPlan.Wait) next(pods, silent)).why()).contains("demo-0", "answer");
    var bootstrapping = caughtUp(3);
    bootstrapping.put(
        1,
        new NodeView(
            1,
            true,
            1,
            -1,
            false,
            -1,
            false,
            new NodeView.Report(0, 2, 3, 10, 100, List.of(), "bootstrapping", -1, true)));
    assertThat(((RollPlan.Wait) next(pods, bootstrapping)).why())
        .isEqualTo("waiting for demo-1 to catch up: bootstrapping after an empty start");
  }

  @Test
  void waitsDuringAChangeOfSize() {
    var pods = List.of(pod(0, true, OLD), pod(1, true, OLD), pod(2, true, OLD));
    var decision = RollPlan.next(new RollPlan.Input(pods, caughtUp(3), DESIRED, 2, 3, JOINING));
    assertThat(((RollPlan.Wait) decision).why()).contains("change of size");
  }

  @Test
  void restartsNothingElseWhileANodeIsReplaced() {
    // demo-1's eviction for its replacement is decided in the same reconciliation: it still
    // looks up, and restarting demo-2 now would take two down
    var pods = List.of(pod(0, true, OLD), pod(1, true, OLD), pod(2, true, OLD));
    var decision =
        RollPlan.next(new RollPlan.Input(pods, caughtUp(3), DESIRED, 2, 3, STABLE, true, "demo-1"));
    assertThat(decision).isInstanceOf(RollPlan.Wait.class);
    assertThat(((RollPlan.Wait) decision).why())
        .isEqualTo("waiting for the replacement of demo-1 to finish");
  }

  @Test
  void theReplacedPodOnABrokenSettingMayStillBeRestarted() {
    // recreated from an outdated template that keeps it from being Ready: it serves nothing
    var pods = List.of(pod(0, true, NEW), pod(1, false, OLD), pod(2, true, NEW));
    var decision =
        RollPlan.next(new RollPlan.Input(pods, caughtUp(3), DESIRED, 2, 3, STABLE, true, "demo-1"));
    assertThat(decision).isInstanceOf(RollPlan.Restart.class);
    assertThat(((RollPlan.Restart) decision).pod().name()).isEqualTo("demo-1");
  }

  @Test
  void waitsDuringAChangeOfTheDefaultAckFrom() {
    var pods = List.of(pod(0, true, OLD), pod(1, true, OLD), pod(2, true, OLD));
    var widening = STABLE.toBuilder().epoch(2).step(Membership.Step.STREAMING).targetAck(3).build();
    var decision = RollPlan.next(new RollPlan.Input(pods, caughtUp(3), DESIRED, 2, 3, widening));
    assertThat(((RollPlan.Wait) decision).why())
        .isEqualTo("a change of the default ack/from is under way");
  }

  @Test
  void aRefusedChangeOfSizeDoesNotHoldTheRollBack() {
    // 2 replicas wanted of 3 members at from 3: refused, and nothing is published
    var refused = ScalePlan.next(STABLE, 2, R23, caughtUp(3), i -> "demo-" + i);
    assertThat(refused.waiting()).startsWith("refused: ");
    var pods = List.of(pod(0, true, OLD), pod(1, true, OLD), pod(2, true, OLD));
    var decision =
        RollPlan.next(new RollPlan.Input(pods, caughtUp(3), DESIRED, 2, 3, refused.next()));
    assertThat(((RollPlan.Restart) decision).pod().name()).isEqualTo("demo-2");
  }

  @Test
  void restartsABrokenPodDuringAChangeOfSizeButNoReadyOne() {
    var broken =
        List.of(pod(0, true, OLD), pod(1, true, OLD), pod(2, true, OLD), pod(3, false, OLD));
    var decision = RollPlan.next(new RollPlan.Input(broken, caughtUp(4), DESIRED, 2, 3, JOINING));
    assertThat(((RollPlan.Restart) decision).pod().name()).isEqualTo("demo-3");
    assertThat(((RollPlan.Restart) decision).reason()).endsWith("costs no replica");
    var ready = List.of(pod(0, true, OLD), pod(1, true, OLD), pod(2, true, OLD), pod(3, true, NEW));
    var waits = RollPlan.next(new RollPlan.Input(ready, caughtUp(4), DESIRED, 2, 3, JOINING));
    assertThat(((RollPlan.Wait) waits).why()).isEqualTo("a change of size (3 -> 4) is under way");
  }

  @Test
  void waitsUntilTheStatefulSetControllerHasTheNewTemplate() {
    var pods = List.of(pod(0, true, OLD), pod(1, true, OLD), pod(2, true, OLD));
    var decision =
        RollPlan.next(new RollPlan.Input(pods, caughtUp(3), DESIRED, 2, 3, STABLE, false));
    assertThat(((RollPlan.Wait) decision).why()).contains("StatefulSet controller");
  }

  @Test
  void refusesWhenOneReplicaDownBreaksTheDefaultQuorum() {
    var pods = List.of(pod(0, true, OLD), pod(1, true, OLD), pod(2, true, OLD));
    var all = RollPlan.next(new RollPlan.Input(pods, caughtUp(3), DESIRED, 3, 3, STABLE));
    assertThat(all).isInstanceOf(RollPlan.Refuse.class);
    var single =
        RollPlan.next(
            new RollPlan.Input(List.of(pod(0, true, OLD)), caughtUp(1), DESIRED, 1, 1, STABLE));
    assertThat(single).isInstanceOf(RollPlan.Refuse.class);
  }

  /**
   * Whatever the pods' states, a restart is only ever decided when, once it is carried out, at most
   * one pod is down, and the pod it stops was up only if every other pod is up.
   */
  @Property
  void aRestartNeverLeavesTwoPodsDown(
      @ForAll @IntRange(min = 1, max = 7) int n,
      @ForAll long readyBits,
      @ForAll long outdatedBits,
      @ForAll long missingBits,
      @ForAll boolean scaling) {
    List<PodState> pods = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      boolean missing = (missingBits >> i & 1) == 1;
      pods.add(
          missing
              ? PodState.missing(i, "demo-" + i)
              : pod(i, (readyBits >> i & 1) == 1, (outdatedBits >> i & 1) == 1 ? OLD : NEW));
    }
    var decision =
        RollPlan.next(
            new RollPlan.Input(pods, caughtUp(n), DESIRED, 2, 3, scaling ? JOINING : STABLE));
    if (decision instanceof RollPlan.Restart restart) {
      long downAfter =
          pods.stream().filter(p -> !p.up() || p.ordinal() == restart.pod().ordinal()).count();
      assertThat(downAfter).isLessThanOrEqualTo(1);
      assertThat(restart.pod().outdated(DESIRED)).isTrue();
      assertThat(scaling && restart.pod().ready())
          .as("a Ready pod restarted during a scale")
          .isFalse();
    }
  }
}
