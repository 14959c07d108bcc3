package dev.dht.operator.backup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.contract.backup.VerifyStatus;
import dev.dht.operator.kube.Events;
import org.junit.jupiter.api.Test;

class VerificationEventsTest {
  static BackupVerification pending(String reason) {
    return BackupVerification.builder()
        .phase(BackupVerification.PENDING)
        .reason(reason)
        .message("m")
        .observedGeneration(1L)
        .build();
  }

  @Test
  void startedVerifiedAndFailedAreSaidOnTheirTransitionOnly() {
    var running = VerificationsTest.running(1);
    assertThat(VerificationEvents.between(pending("NodeBusy"), running))
        .singleElement()
        .satisfies(e -> {
          assertThat(e.type()).isEqualTo(Events.NORMAL);
          assertThat(e.reason()).isEqualTo(VerificationEvents.STARTED);
        });
    var progressed = running.toBuilder().membersChecked(1).message("more").build();
    assertThat(VerificationEvents.between(running, progressed)).isEmpty();

    var passed = VerificationsTest.passedAt(1);
    assertThat(VerificationEvents.between(progressed, passed))
        .extracting(Events.Transition::type, Events.Transition::reason)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(Events.NORMAL, "Verified"));
    assertThat(VerificationEvents.between(passed, passed)).isEmpty();
    assertThat(VerificationEvents.turned(running, passed, BackupVerification.PASSED)).isTrue();
    assertThat(VerificationEvents.turned(passed, passed, BackupVerification.PASSED)).isFalse();

    var failed =
        Verifications.followed(
                running,
                "b1",
                new VerifyAnswer.Reported(
                    new VerifyStatus("b1", VerifyStatus.FAILED, 1, 2, 1, 3, 4, 5, 6, "digest")))
            .next();
    assertThat(VerificationEvents.between(running, failed))
        .containsExactly(
            new Events.Transition(Events.WARNING, "VerificationFailed", "BackupDamaged: digest"));
    assertThat(VerificationEvents.turned(running, failed, BackupVerification.FAILED)).isTrue();
  }

  @Test
  void aPendingVerificationSaysEachNewReasonOnceAndNoneIsSilent() {
    assertThat(VerificationEvents.between(null, pending("NodeBusy")))
        .containsExactly(
            new Events.Transition(Events.NORMAL, VerificationEvents.WAITS, "NodeBusy: m"));
    assertThat(VerificationEvents.between(pending("NodeBusy"), pending("NodeBusy"))).isEmpty();
    assertThat(VerificationEvents.between(pending("NodeBusy"), pending("CheckError")))
        .extracting(Events.Transition::message)
        .containsExactly("CheckError: m");
    assertThat(VerificationEvents.between(pending("NodeBusy"), null)).isEmpty();
    assertThat(VerificationEvents.between(null, null)).isEmpty();
  }
}
