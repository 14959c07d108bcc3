package dev.dht.operator.rolling;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PodRevisionTest {
  private static final PodRevision RUNNING =
      PodRevision.parse("env=11111111 flags=22222222 image=33333333 inputs=44444444");

  @Test
  void anAnnotationReadsBackAsTheSameRevision() {
    assertThat(PodRevision.parse(RUNNING.annotation())).isEqualTo(RUNNING);
    assertThat(RUNNING.annotation())
        .isEqualTo("env=11111111 flags=22222222 image=33333333 inputs=44444444");
    assertThat(RUNNING.inputs()).isEqualTo("44444444");
    assertThat(RUNNING.id()).hasSize(16);
    assertThat(PodRevision.parse(null)).isNull();
    assertThat(PodRevision.parse(" ")).isNull();
  }

  @Test
  void namesTheChangedPartsForPeople() {
    var other = PodRevision.parse("env=11111111 flags=99999999 image=88888888 inputs=44444444");
    assertThat(other.changesFrom(RUNNING)).containsExactly("node flags", "image");
    assertThat(RUNNING.changesFrom(RUNNING)).isEmpty();
    assertThat(RUNNING.changesFrom(PodRevision.ofOlderOperator("abc")))
        .containsExactly("an older operator's template");
  }

  @Test
  void withTheTemplateAcceptedAnyDifferenceRestartsAPod() {
    var desired = new DesiredRevision(changed("flags=55555555"), true);
    assertThat(desired.needsRestart(RUNNING)).isTrue();
    assertThat(desired.changesFor(RUNNING)).isEqualTo("node flags");
    assertThat(desired.needsRestart(desired.revision())).isFalse();
    assertThat(desired.needsRestart(PodRevision.ofOlderOperator("abc"))).isTrue();
  }

  @Test
  void whileTheGateHoldsOnlyChangedInputsRestartAPod() {
    var templateOnly = new DesiredRevision(changed("flags=55555555"), false);
    assertThat(templateOnly.needsRestart(RUNNING)).as("the operator's template only").isFalse();
    assertThat(templateOnly.runBy(RUNNING)).isTrue();
    assertThat(templateOnly.needsRestart(PodRevision.ofOlderOperator("abc")))
        .as("inputs unknown")
        .isFalse();

    var settings = new DesiredRevision(changed("inputs=66666666"), false);
    assertThat(settings.needsRestart(RUNNING)).isTrue();
    assertThat(settings.changesFor(RUNNING)).isEqualTo("settings");
  }

  @Test
  void aPodOfUnknownRevisionNeedsNoRestartButDoesNotCountAsCurrent() {
    var desired = new DesiredRevision(RUNNING, true);
    assertThat(desired.needsRestart(null)).isFalse();
    assertThat(desired.runBy(null)).isFalse();
  }

  private static PodRevision changed(String part) {
    String name = part.substring(0, part.indexOf('='));
    return PodRevision.parse(RUNNING.annotation().replaceAll(name + "=\\w+", part));
  }
}
