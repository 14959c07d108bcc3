package dev.dht.operator.replacing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.contract.MembersFile.Replication;
import dev.dht.operator.kube.Events;
import dev.dht.operator.replacing.NodeReplacement.Phase;
import dev.dht.operator.scaling.Membership;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ReplacementPlanTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final Instant T1 = Instant.parse("2026-01-01T00:01:13Z");
  private static final Membership STABLE = Membership.stable(1, 3, new Replication(2, 3));

  /** demo-1 Ready on its claim, as before the replacement. */
  private static final PodAndClaim UP = new PodAndClaim("pod-a", false, true, "claim-a", false);

  private static ReplacementPlan.Decision next(
      String requested, NodeReplacement recorded, PodAndClaim seen) {
    return next(requested, recorded, STABLE, seen, T0);
  }

  private static ReplacementPlan.Decision next(
      String requested,
      NodeReplacement recorded,
      Membership membership,
      PodAndClaim seen,
      Instant now) {
    return ReplacementPlan.next(
        new ReplacementPlan.Input("demo", requested, recorded, membership, seen, now));
  }

  /** demo-1's replacement as recorded once started at T0 on pod-a and claim-a. */
  private static NodeReplacement started() {
    return next("demo-1", null, UP).current();
  }

  private static void assertNothingDone(ReplacementPlan.Decision decision) {
    assertThat(decision.evictPod()).as("evict").isFalse();
    assertThat(decision.deleteClaim()).as("delete the claim").isFalse();
    assertThat(decision.removeAnnotation()).as("remove the annotation").isFalse();
  }

  @Test
  void nothingAskedIsNothingToDo() {
    var decision = next(null, null, PodAndClaim.NONE);
    assertThat(decision.current()).isNull();
    assertThat(decision.completed()).isNull();
    assertThat(decision.replacing()).isNull();
    assertThat(decision.events()).isEmpty();
    assertNothingDone(decision);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "demo", "demo-", "demo-01", "demo--1", "other-1", "demo-1x", "1"})
  void aValueThatIsNoPodOfTheClusterIsRefused(String value) {
    var decision = next(value, null, PodAndClaim.NONE);
    assertThat(decision.current().getPhase()).isEqualTo(Phase.Refused);
    assertThat(decision.current().getMessage())
        .isEqualTo(
            "dht.dev/replace="
                + value
                + " is refused: not a pod of this cluster (demo-<ordinal>, e.g. demo-0)");
    assertThat(decision.replacing()).isNull();
    assertNothingDone(decision);
    assertThat(ReplacementPlan.subject("demo", value, null)).as("nothing to look at").isNull();
  }

  @Test
  void aPodBeyondTheMembersIsRefused() {
    var decision = next("demo-3", null, UP);
    assertThat(decision.current().getPhase()).isEqualTo(Phase.Refused);
    assertThat(decision.current().getMessage())
        .isEqualTo(
            "dht.dev/replace=demo-3 is refused: demo-3 is not a member: the members are demo-0 to"
                + " demo-2");
    assertNothingDone(decision);
  }

  @Test
  void aNodeWhoseKeysAreNowhereElseIsRefused() {
    var single = Membership.stable(1, 1, new Replication(1, 1));
    var decision = next("demo-0", null, single, UP, T0);
    assertThat(decision.current().getPhase()).isEqualTo(Phase.Refused);
    assertThat(decision.current().getMessage()).contains("from 1", "would lose its keys");
    assertNothingDone(decision);

    var fromOne = Membership.stable(1, 3, new Replication(1, 1));
    assertThat(next("demo-1", null, fromOne, UP, T0).current().getPhase()).isEqualTo(Phase.Refused);
  }

  @Test
  void waitsWhileAChangeOfSizeIsUnderWay() {
    var joining = STABLE.toBuilder().epoch(2).target(5).step(Membership.Step.JOINING).build();
    var decision = next("demo-1", null, joining, UP, T0);
    assertThat(decision.current().getPhase()).isEqualTo(Phase.Waiting);
    assertThat(decision.current().getMessage())
        .isEqualTo(
            "waiting for a change of size (3 -> 5) to finish: its plan counts on the nodes it"
                + " streams between");
    assertThat(decision.current().getStartedAt()).as("not started").isNull();
    assertThat(decision.replacing()).isNull();
    assertNothingDone(decision);

    var widening = STABLE.toBuilder().epoch(2).targetAck(3).step(Membership.Step.JOINING).build();
    assertThat(next("demo-1", null, widening, UP, T0).current().getMessage())
        .startsWith("waiting for a change of the default ack/from to finish");
  }

  @Test
  void startsOnceTheChangeIsOver() {
    var joining = STABLE.toBuilder().epoch(2).target(5).step(Membership.Step.JOINING).build();
    var waiting = next("demo-1", null, joining, UP, T0).current();
    var decision = next("demo-1", waiting, UP);
    assertThat(decision.current().getPhase()).isEqualTo(Phase.Evicting);
    assertThat(decision.evictPod()).isTrue();
  }

  @Test
  void startsByEvictingThePodThenDeletingItsClaim() {
    var decision = next("demo-1", null, UP);
    var current = decision.current();
    assertThat(current.getPod()).isEqualTo("demo-1");
    assertThat(current.getPhase()).isEqualTo(Phase.Evicting);
    assertThat(current.getMessage())
        .isEqualTo("evicting demo-1, then deleting its claim data-demo-1");
    assertThat(current.getStartedAt()).isEqualTo(T0.toString());
    assertThat(current.getOldClaimUid()).isEqualTo("claim-a");
    assertThat(current.getOldPodUid()).isEqualTo("pod-a");
    assertThat(decision.evictPod()).isTrue();
    assertThat(decision.deleteClaim()).isTrue();
    assertThat(decision.removeAnnotation()).isFalse();
    assertThat(decision.replacing()).isEqualTo("demo-1");
    assertThat(ReplacementPlan.subject("demo", "demo-1", null)).isEqualTo("demo-1");
  }

  @Test
  void aRefusedEvictionDeletesNothingAndSaysWhy() {
    var refused =
        next("demo-1", null, UP)
            .evictionRefused("the disruption budget allows no eviction now: demo: 2 of 3");
    assertThat(refused.evictPod()).isFalse();
    assertThat(refused.deleteClaim()).as("the claim stays while its pod does").isFalse();
    assertThat(refused.current().getMessage())
        .isEqualTo(
            "evicting demo-1 waits: the disruption budget allows no eviction now: demo: 2 of 3");
    // the next reconciliation tries again
    var again = next("demo-1", refused.current(), UP);
    assertThat(again.evictPod()).isTrue();
    assertThat(again.deleteClaim()).isTrue();
    assertThat(again.current().getStartedAt()).isEqualTo(T0.toString());
  }

  @Test
  void waitsForThePodToStopAndItsOldClaimToGo() {
    var stopping = new PodAndClaim("pod-a", true, true, "claim-a", true);
    var decision = next("demo-1", started(), stopping);
    assertThat(decision.current().getPhase()).isEqualTo(Phase.Stopping);
    assertThat(decision.current().getMessage())
        .startsWith("waiting for demo-1 to stop; its old claim data-demo-1 goes with it")
        .contains("Node is deleted");
    assertNothingDone(decision);
    assertThat(decision.replacing()).isEqualTo("demo-1");

    var claimLeft = new PodAndClaim(null, false, false, "claim-a", true);
    var gone = next("demo-1", started(), claimLeft);
    assertThat(gone.current().getPhase()).isEqualTo(Phase.Recreating);
    assertThat(gone.current().getMessage())
        .isEqualTo("waiting for the old claim data-demo-1 to go");
    assertNothingDone(gone);
  }

  @Test
  void deletesTheOldClaimAgainIfItsDeletionFailed() {
    var evicted = new PodAndClaim("pod-a", true, true, "claim-a", false);
    var decision = next("demo-1", started(), evicted);
    assertThat(decision.evictPod()).isFalse();
    assertThat(decision.deleteClaim()).isTrue();
  }

  @Test
  void evictsAPodRecreatedOnTheOldClaimAgain() {
    // Pending on the claim being deleted: it would wait for it forever
    var pending = new PodAndClaim("pod-b", false, false, "claim-a", true);
    var decision = next("demo-1", started(), pending);
    assertThat(decision.current().getPhase()).isEqualTo(Phase.Recreating);
    assertThat(decision.current().getMessage())
        .isEqualTo(
            "demo-1 was recreated while its old claim data-demo-1 was still there: evicting it"
                + " again, so that it comes back on a new one");
    assertThat(decision.evictPod()).isTrue();
    assertThat(decision.deleteClaim()).as("already being deleted").isFalse();

    // the old claim's deletion had failed: the recreated pod runs on it
    var onOld = new PodAndClaim("pod-b", false, true, "claim-a", false);
    var again = next("demo-1", started(), onOld);
    assertThat(again.evictPod()).isTrue();
    assertThat(again.deleteClaim()).isTrue();
  }

  @Test
  void waitsForTheStatefulSetToRecreateTheClaimAndThePod() {
    var nothing = next("demo-1", started(), PodAndClaim.NONE);
    assertThat(nothing.current().getPhase()).isEqualTo(Phase.Recreating);
    assertThat(nothing.current().getMessage())
        .isEqualTo("waiting for the StatefulSet to recreate data-demo-1 and demo-1");
    assertNothingDone(nothing);

    var claimOnly = new PodAndClaim(null, false, false, "claim-b", false);
    assertThat(next("demo-1", started(), claimOnly).current().getMessage())
        .isEqualTo("waiting for the StatefulSet to recreate demo-1 on the new claim data-demo-1");

    // Pending until the StatefulSet creates its claim: not evicted
    var podOnly = new PodAndClaim("pod-b", false, false, null, false);
    var pending = next("demo-1", started(), podOnly);
    assertThat(pending.current().getPhase()).isEqualTo(Phase.Recreating);
    assertNothingDone(pending);
  }

  @Test
  void bootstrapsOnTheNewClaimUntilReady() {
    var bootstrapping = new PodAndClaim("pod-b", false, false, "claim-b", false);
    var decision = next("demo-1", started(), bootstrapping);
    assertThat(decision.current().getPhase()).isEqualTo(Phase.Bootstrapping);
    assertThat(decision.current().getMessage())
        .isEqualTo(
            "demo-1 runs on a new claim data-demo-1 and is not Ready yet: it pulls its keys from"
                + " its peers before it serves");
    assertThat(decision.replacing()).isEqualTo("demo-1");
    assertNothingDone(decision);
  }

  @Test
  void doneWhenThePodIsReadyOnANewClaimThenTheAnnotationGoes() {
    var ready = new PodAndClaim("pod-b", false, true, "claim-b", false);
    var decision = next("demo-1", started(), STABLE, ready, T1);
    var done = decision.current();
    assertThat(done.getPhase()).isEqualTo(Phase.Done);
    assertThat(done.getFinishedAt()).isEqualTo(T1.toString());
    assertThat(done.getMessage())
        .isEqualTo(
            "replaced demo-1 on a new volume in 73 s; it pulled its keys from its peers before"
                + " serving");
    assertThat(decision.removeAnnotation()).isTrue();
    assertThat(decision.evictPod()).isFalse();
    assertThat(decision.deleteClaim()).isFalse();
    assertThat(decision.replacing()).as("the roller and a scale may go on").isNull();
    assertThat(decision.events())
        .containsExactly(new Events.Transition(Events.NORMAL, "Replaced", done.getMessage()));

    // read before the removal: removed again, no second event
    var unseen = next("demo-1", done, ready);
    assertThat(unseen.current()).isEqualTo(done);
    assertThat(unseen.removeAnnotation()).isTrue();
    assertThat(unseen.events()).isEmpty();

    // seen removed: the last replacement
    var after = next(null, done, PodAndClaim.NONE);
    assertThat(after.current()).isNull();
    assertThat(after.completed()).isEqualTo(done);
    assertNothingDone(after);
    assertThat(ReplacementPlan.subject("demo", null, done)).isNull();
  }

  @Test
  void anotherPodAskedAfterADoneOneStartsIt() {
    var done =
        next("demo-1", started(), new PodAndClaim("pod-b", false, true, "claim-b", false))
            .current();
    assertThat(ReplacementPlan.subject("demo", "demo-2", done)).isEqualTo("demo-2");
    var decision = next("demo-2", done, new PodAndClaim("pod-c", false, true, "claim-c", false));
    assertThat(decision.completed()).isEqualTo(done);
    assertThat(decision.current().getPod()).isEqualTo("demo-2");
    assertThat(decision.current().getOldClaimUid()).isEqualTo("claim-c");
    assertThat(decision.evictPod()).isTrue();
  }

  @Test
  void aClaimTheUserDeletedAlreadyMeansOneEvictionOfThePod() {
    // the claim is gone (its pod was not scheduled) or being deleted (its pod holds it)
    var noClaim = new PodAndClaim("pod-a", false, false, null, false);
    var decision = next("demo-1", null, noClaim);
    assertThat(decision.current().getOldClaimUid()).isNull();
    assertThat(decision.evictPod()).isTrue();
    assertThat(decision.deleteClaim()).isFalse();
    var recreated = new PodAndClaim("pod-b", false, false, "claim-b", false);
    var bootstrapping = next("demo-1", decision.current(), recreated);
    assertThat(bootstrapping.current().getPhase()).isEqualTo(Phase.Bootstrapping);
    assertThat(bootstrapping.evictPod()).as("once").isFalse();
    var ready = new PodAndClaim("pod-b", false, true, "claim-b", false);
    assertThat(next("demo-1", decision.current(), ready).current().getPhase())
        .isEqualTo(Phase.Done);

    var claimGoing = new PodAndClaim("pod-a", false, true, "claim-a", true);
    var holding = next("demo-1", null, claimGoing);
    assertThat(holding.evictPod()).isTrue();
    assertThat(holding.deleteClaim()).isFalse();
  }

  @Test
  void aPodGoneForGoodLeavesOnlyItsClaimToDelete() {
    var claimOnly = new PodAndClaim(null, false, false, "claim-a", false);
    var decision = next("demo-1", null, claimOnly);
    assertThat(decision.current().getOldPodUid()).isNull();
    assertThat(decision.evictPod()).isFalse();
    assertThat(decision.deleteClaim()).isTrue();
    var ready = new PodAndClaim("pod-b", false, true, "claim-b", false);
    assertThat(next("demo-1", decision.current(), ready).current().getPhase())
        .isEqualTo(Phase.Done);
  }

  @Test
  void removingTheAnnotationBeforeAnythingWasDeletedCancels() {
    var waitingForBudget = next("demo-1", null, UP).evictionRefused("budget").current();
    var decision = next(null, waitingForBudget, UP);
    assertThat(decision.current()).isNull();
    assertThat(decision.completed()).isNull();
    assertNothingDone(decision);
    assertThat(decision.events())
        .extracting(Events.Transition::reason)
        .containsExactly("ReplacementCancelled");
  }

  @Test
  void removingTheAnnotationAfterTheClaimWasDeletedGoesOn() {
    var stopping = new PodAndClaim("pod-a", true, true, "claim-a", true);
    var decision = next(null, started(), stopping);
    assertThat(decision.current().getPhase()).isEqualTo(Phase.Stopping);
    assertThat(decision.current().getMessage())
        .endsWith("(dht.dev/replace no longer names it, but its old volume is going already)");
    var ready = new PodAndClaim("pod-b", false, true, "claim-b", false);
    var done = next(null, decision.current(), ready);
    assertThat(done.current().getPhase()).isEqualTo(Phase.Done);
    assertThat(done.removeAnnotation()).as("nothing to remove").isFalse();
  }

  @Test
  void anotherPodAskedWhileOneIsReplacedWaitsForIt() {
    var stopping = new PodAndClaim("pod-a", true, true, "claim-a", true);
    assertThat(ReplacementPlan.subject("demo", "demo-2", started())).isEqualTo("demo-1");
    var decision = next("demo-2", started(), stopping);
    assertThat(decision.current().getPod()).isEqualTo("demo-1");
    assertThat(decision.current().getPhase()).isEqualTo(Phase.Stopping);
  }
}
