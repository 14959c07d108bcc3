package dev.dht.operator.loadtest.profile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.operator.loadtest.DhtLoadTestStatus;
import dev.dht.operator.loadtest.job.GeneratorProgress;
import java.time.Duration;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class ProfileStartTest {
  static final Duration THIRTY = Duration.ofSeconds(30);

  static GeneratorProgress g(String phase, boolean measuring, double measured) {
    return new GeneratorProgress(
        0, "p0", "http://x", phase, null, 5 + measured, measuring, measured, 0, 0, 0, null);
  }

  static DhtLoadTestStatus running() {
    var status = new DhtLoadTestStatus();
    status.setPhase(DhtLoadTestStatus.RUNNING);
    return status;
  }

  @Test
  void notDuringTheWarmUp() {
    assertThat(ProfileStart.seconds(true, running(), List.of(g("running", false, 0)), THIRTY))
        .isEmpty();
    assertThat(ProfileStart.seconds(true, running(), List.of(g("warming", false, 0)), THIRTY))
        .isEmpty();
    assertThat(
            ProfileStart.seconds(
                true, running(), List.of(GeneratorProgress.silent(0, "p0", null)), THIRTY))
        .isEmpty();
  }

  @Test
  void onceTheWindowOpensForWhatIsLeftOfIt() {
    assertThat(ProfileStart.seconds(true, running(), List.of(g("running", true, 0)), THIRTY))
        .hasValue(30);
    assertThat(ProfileStart.seconds(true, running(), List.of(g("running", true, 2.4)), THIRTY))
        .hasValue(28);
  }

  @Test
  void theFirstGeneratorWhoseWindowOpenedSetsTheEnd() {
    var seen = List.of(g("running", true, 1.0), g("running", true, 3.0), g("running", false, 0));
    assertThat(ProfileStart.seconds(true, running(), seen, THIRTY)).hasValue(27);
  }

  @Test
  void askedOnceNeverForAStoppedRunNorWithoutNodes() {
    var seen = List.of(g("running", true, 1));
    var asked = running();
    asked.setProfile(DhtLoadTestStatus.ProfileRun.builder().seconds(29L).build());
    assertThat(ProfileStart.seconds(true, asked, seen, THIRTY)).isEmpty();
    var aborted = running();
    aborted.setAborted("p99 can no longer be 1 ms or less");
    assertThat(ProfileStart.seconds(true, aborted, seen, THIRTY)).isEmpty();
    assertThat(ProfileStart.seconds(false, running(), seen, THIRTY)).isEmpty();
  }

  @Test
  void notWithLessThanASecondLeftNorOnceDone() {
    assertThat(ProfileStart.seconds(true, running(), List.of(g("running", true, 29.2)), THIRTY))
        .isEmpty();
    assertThat(ProfileStart.seconds(true, running(), List.of(g("done", true, 10)), THIRTY))
        .isEmpty();
  }

  @Test
  void atMostWhatANodeTakes() {
    assertThat(
            ProfileStart.seconds(
                true, running(), List.of(g("running", true, 1)), Duration.ofMinutes(30)))
        .hasValue(ProfileStart.MAX_SECONDS);
  }

  /** The profile never outlasts the window by more than half a second, and is never empty. */
  @Property
  void theProfileEndsWithTheWindow(
      @ForAll @IntRange(min = 1, max = 3600) int durationSeconds,
      @ForAll @DoubleRange(min = 0, max = 3600) double measured) {
    var seconds =
        ProfileStart.seconds(
            true,
            running(),
            List.of(g("running", true, measured)),
            Duration.ofSeconds(durationSeconds));
    double left = durationSeconds - measured;
    if (left < 1) {
      assertThat(seconds).isEmpty();
    } else {
      assertThat(seconds.getAsLong()).isBetween(1L, ProfileStart.MAX_SECONDS);
      assertThat(seconds.getAsLong()).isLessThanOrEqualTo((long) Math.floor(left + 0.5));
      assertThat(seconds.getAsLong() >= Math.min(ProfileStart.MAX_SECONDS, left - 0.5)).isTrue();
    }
  }
}
