package dev.dht.operator.scaling;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.operator.scaling.Membership.Step;
import dev.dht.operator.scaling.ScalePlan.Decision;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ScalePlanTest {
  private static final ScalePlan.Names NAMES = i -> "demo-" + i;
  private static final List<String> URLS =
      List.of("http://n0:1", "http://n1:1", "http://n2:1", "http://n3:1", "http://n4:1");

  /** Nodes 0..n-1, all Ready, at {@code epoch}, with the given stream and cleanup epochs. */
  private static Map<Integer, NodeView> nodes(int n, long epoch, long streamed, long cleaned) {
    Map<Integer, NodeView> views = new HashMap<>();
    for (int i = 0; i < n; i++) {
      views.put(i, new NodeView(i, true, epoch, streamed, false, cleaned, false));
    }
    return views;
  }

  private static Decision step(Membership now, int desired, Map<Integer, NodeView> nodes) {
    return ScalePlan.next(now, desired, 3, nodes, NAMES);
  }

  @Test
  void growingThreeToFiveGoesThroughEveryStepEachObservedBeforeTheNext() {
    Membership m = Membership.stable(1, 3);
    assertThat(m.file(URLS)).isEqualTo("epoch 1\nhttp://n0:1\nhttp://n1:1\nhttp://n2:1\n");

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
            "epoch 2\nhttp://n0:1\nhttp://n1:1\nhttp://n2:1\nhttp://n3:1 joining\nhttp://n4:1 joining\n");

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
        .startsWith("epoch 3\nread-from next\n")
        .contains("n4:1 joining");

    d = step(d.next(), 5, nodes(5, 3, 2, -1));
    assertThat(d.next().getStep()).isEqualTo(Step.FINAL);
    assertThat(d.next().file(URLS))
        .isEqualTo("epoch 4\nhttp://n0:1\nhttp://n1:1\nhttp://n2:1\nhttp://n3:1\nhttp://n4:1\n");

    d = step(d.next(), 5, nodes(5, 4, 2, -1));
    assertThat(d.next().getStep()).isEqualTo(Step.CLEANING_UP);
    assertThat(d.cleanup()).containsExactly(0, 1, 2, 3, 4);

    d = step(d.next(), 5, nodes(5, 4, 2, 4));
    assertThat(d.next()).isEqualTo(Membership.stable(4, 5));
    assertThat(d.waiting()).isNull();
  }

  @Test
  void shrinkingKeepsTheLeavingPodsUntilEveryMemberObservedTheFinalMembership() {
    Decision d = step(Membership.stable(4, 5), 3, nodes(5, 4, -1, -1));
    assertThat(d.next().getStep()).isEqualTo(Step.JOINING);
    assertThat(d.next().file(URLS)).contains("n3:1 leaving").contains("n4:1 leaving");
    d = step(d.next(), 3, nodes(5, 5, -1, -1));
    assertThat(d.stream()).as("the members that stay pull").containsExactly(0, 1, 2);
    d = step(d.next(), 3, nodes(5, 5, 5, -1));
    d = step(d.next(), 3, nodes(5, 6, 5, -1));
    assertThat(d.next().getStep()).isEqualTo(Step.FINAL);
    assertThat(d.next().pods()).as("leaving pods still run").isEqualTo(5);
    assertThat(d.next().file(URLS)).isEqualTo("epoch 7\nhttp://n0:1\nhttp://n1:1\nhttp://n2:1\n");
    d = step(d.next(), 3, nodes(3, 7, 5, -1));
    assertThat(d.next().getStep()).isEqualTo(Step.CLEANING_UP);
    assertThat(d.next().pods()).isEqualTo(3);
    d = step(d.next(), 3, nodes(3, 7, 5, 7));
    assertThat(d.next()).isEqualTo(Membership.stable(7, 3));
  }

  @Test
  void aChangeDuringAChangeWaitsUnlessNothingWasPublishedYet() {
    Membership starting = new Membership(1, 3, 5, Step.STARTING);
    assertThat(step(starting, 4, nodes(3, 1, -1, -1)).next())
        .as("retargeted while the pods start")
        .isEqualTo(new Membership(1, 3, 4, Step.STARTING));
    assertThat(step(starting, 3, nodes(3, 1, -1, -1)).next())
        .as("dropped: nothing was published")
        .isEqualTo(Membership.stable(1, 3));

    Membership joining = new Membership(2, 3, 5, Step.JOINING);
    Map<Integer, NodeView> lagging = nodes(5, 1, -1, -1);
    Decision d = step(joining, 4, lagging);
    assertThat(d.next()).isEqualTo(joining);
    assertThat(d.waiting()).contains("the change to 4 replicas waits");
  }

  @Test
  void fewerReplicasThanTheDefaultFromAreRefused() {
    Decision d = step(Membership.stable(1, 3), 2, nodes(3, 1, -1, -1));
    assertThat(d.next()).isEqualTo(Membership.stable(1, 3));
    assertThat(d.waiting()).startsWith("refused").contains("default from (3)");
  }
}
