package dev.dht.operator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.operator.cluster.ClusterEvents.Transition;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import java.util.List;
import org.junit.jupiter.api.Test;

class ClusterEventsTest {

  private static Condition c(String type, String status, String reason) {
    return new ConditionBuilder()
        .withType(type)
        .withStatus(status)
        .withReason(reason)
        .withMessage(reason + " message")
        .build();
  }

  private static List<Condition> state(boolean ready, String progressing, boolean degraded) {
    return List.of(
        c("Ready", ready ? "True" : "False", ready ? "AllReplicasReady" : "ReplicasNotReady"),
        c("Progressing", "Paused".equals(progressing) ? "False" : "True", progressing),
        c("Degraded", degraded ? "True" : "False", degraded ? "ReplicasNotReady" : "AsExpected"),
        c(
            "Paused",
            "Paused".equals(progressing) ? "True" : "False",
            "Paused".equals(progressing) ? "ReconciliationPaused" : "Reconciling"));
  }

  @Test
  void becomingReadyIsANormalEvent() {
    assertThat(ClusterEvents.between(List.of(), state(true, "RolloutComplete", false)))
        .containsExactly(new Transition("Normal", "ClusterReady", "AllReplicasReady message"));
  }

  @Test
  void degradationIsAWarningAndRecoveryIsNoted() {
    var degraded = state(false, "RolloutComplete", true);
    assertThat(ClusterEvents.between(state(true, "RolloutComplete", false), degraded))
        .containsExactly(
            new Transition("Warning", "ReplicasNotReady", "degraded: ReplicasNotReady message"));
    assertThat(ClusterEvents.between(degraded, state(true, "RolloutComplete", false)))
        .extracting(Transition::reason)
        .containsExactly("ClusterReady", "Recovered");
  }

  @Test
  void eachStepOfAChangeOfSizeOrOfTheDefaultsIsAnEvent() {
    var stable = state(true, "RolloutComplete", false);
    var scaling = state(true, "Scaling", false);
    var changing = state(true, "ChangingReplication", false);
    assertThat(ClusterEvents.between(stable, scaling))
        .containsExactly(new Transition("Normal", "Scaling", "Scaling message"));
    assertThat(ClusterEvents.between(scaling, changing))
        .containsExactly(
            new Transition("Normal", "ChangingReplication", "ChangingReplication message"));
    assertThat(ClusterEvents.between(changing, changing)).isEmpty();
  }

  @Test
  void anotherCauseOfDegradationIsAnotherEvent() {
    var notReady = state(false, "RolloutComplete", true);
    var secret = new java.util.ArrayList<>(notReady);
    secret.set(2, c("Degraded", "True", "SecretMissing"));
    assertThat(ClusterEvents.between(notReady, secret))
        .containsExactly(
            new Transition("Warning", "SecretMissing", "degraded: SecretMissing message"));
    assertThat(ClusterEvents.between(secret, secret)).isEmpty();
  }

  @Test
  void configAppliedAndRestartRequiredAreEvents() {
    var running = new java.util.ArrayList<>(state(true, "RolloutComplete", false));
    var after = new java.util.ArrayList<>(running);
    after.add(c("ConfigApplied", "True", "Applied"));
    after.add(c("RestartRequired", "True", "OperatorDefaultsChanged"));
    assertThat(ClusterEvents.between(running, after))
        .extracting(Transition::reason)
        .containsExactly("ConfigApplied", "RestartRequired");
  }

  @Test
  void pauseAndResumeAreEvents() {
    var running = state(true, "RolloutComplete", false);
    var paused = state(true, "Paused", false);
    assertThat(ClusterEvents.between(running, paused))
        .extracting(Transition::reason)
        .containsExactly("ReconciliationPaused");
    assertThat(ClusterEvents.between(paused, running))
        .extracting(Transition::reason)
        .containsExactly("ReconciliationResumed");
  }

  @Test
  void noTransitionNoEvent() {
    var running = state(true, "RolloutComplete", false);
    assertThat(ClusterEvents.between(running, running)).isEmpty();
  }
}
