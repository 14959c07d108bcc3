package dev.dht.operator.loadtest.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.util.List;
import org.junit.jupiter.api.Test;

class PodWaitTest {
  @Test
  void aPodWithoutRoomSaysWhyTheSchedulerLeftIt() {
    var pod =
        pod("t-loadgen-a", "Pending")
            .editStatus()
            .addNewCondition()
            .withType("PodScheduled")
            .withStatus("False")
            .withReason("Unschedulable")
            .withMessage("0/1 nodes are available: 1 Insufficient cpu. ")
            .endCondition()
            .endStatus()
            .build();
    assertThat(PodWait.reasons(List.of(pod)))
        .containsExactly("t-loadgen-a not scheduled: 0/1 nodes are available: 1 Insufficient cpu.");
  }

  @Test
  void aContainerThatCannotStartSaysWhyButANormalStartIsNoWait() {
    var noImage =
        waiting("t-loadgen-b", "ErrImageNeverPull", "image not present with pull policy Never");
    var starting = waiting("t-loadgen-c", "ContainerCreating", null);
    var running = pod("t-loadgen-d", "Running").build();
    assertThat(PodWait.reasons(List.of(noImage, starting, running)))
        .containsExactly("t-loadgen-b ErrImageNeverPull: image not present with pull policy Never");
  }

  private static Pod waiting(String name, String reason, String message) {
    return pod(name, "Pending")
        .editStatus()
        .addNewContainerStatus()
        .withName("loadgen")
        .withNewState()
        .withNewWaiting()
        .withReason(reason)
        .withMessage(message)
        .endWaiting()
        .endState()
        .endContainerStatus()
        .endStatus()
        .build();
  }

  private static PodBuilder pod(String name, String phase) {
    return new PodBuilder()
        .withNewMetadata()
        .withName(name)
        .endMetadata()
        .withNewStatus()
        .withPhase(phase)
        .endStatus();
  }
}
