package dev.dht.operator.backup;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

/** When a schedule makes a backup, and for which time. */
class ScheduleDecisionTest {
  private static final CronSchedule HOURLY = CronSchedule.parse("@hourly");

  private static Instant at(String text) {
    return Instant.parse(text);
  }

  @Test
  void aNewScheduleWaitsForItsFirstTime() {
    var decision =
        ScheduleDecision.at(HOURLY, at("2025-03-04T10:07:00Z"), at("2025-03-04T10:07:05Z"));
    assertThat(decision.isDue()).isFalse();
    assertThat(decision.next()).isEqualTo(at("2025-03-04T11:00:00Z"));
    assertThat(decision.untilNext(at("2025-03-04T10:07:05Z")))
        .isEqualTo(Duration.ofMinutes(52).plusSeconds(55));
  }

  @Test
  void theTimeIsDueOnceReached() {
    var decision =
        ScheduleDecision.at(HOURLY, at("2025-03-04T10:07:00Z"), at("2025-03-04T11:00:00.200Z"));
    assertThat(decision.due()).isEqualTo(at("2025-03-04T11:00:00Z"));
    assertThat(decision.next()).isEqualTo(at("2025-03-04T12:00:00Z"));
  }

  @Test
  void aTimeTakenIsNotDueAgain() {
    var decision =
        ScheduleDecision.at(HOURLY, at("2025-03-04T11:00:00Z"), at("2025-03-04T11:30:00Z"));
    assertThat(decision.isDue()).isFalse();
  }

  @Test
  void timesMissedWhileDownMakeOneBackupOfTheNewest() {
    var decision =
        ScheduleDecision.at(HOURLY, at("2025-03-01T11:00:00Z"), at("2025-03-04T10:30:00Z"));
    assertThat(decision.due()).isEqualTo(at("2025-03-04T10:00:00Z"));
    var after = ScheduleDecision.at(HOURLY, decision.due(), at("2025-03-04T10:30:01Z"));
    assertThat(after.isDue()).isFalse();
  }

  @Test
  void aRareTimeMissedLongAgo() {
    var yearly = CronSchedule.parse("@yearly");
    var decision =
        ScheduleDecision.at(yearly, at("2020-06-01T00:00:00Z"), at("2025-03-04T10:30:00Z"));
    assertThat(decision.due()).isEqualTo(at("2025-01-01T00:00:00Z"));
    var leap = CronSchedule.parse("0 0 29 2 *");
    assertThat(
            ScheduleDecision.at(leap, at("2010-01-01T00:00:00Z"), at("2025-03-04T00:00:00Z")).due())
        .isEqualTo(at("2024-02-29T00:00:00Z"));
    assertThat(
            ScheduleDecision.at(leap, at("2024-03-01T00:00:00Z"), at("2025-03-04T00:00:00Z")).due())
        .isNull();
  }

  @Test
  void aClockBehindTheLastTimeMakesNothing() {
    var decision =
        ScheduleDecision.at(HOURLY, at("2025-03-04T11:00:00Z"), at("2025-03-04T10:59:00Z"));
    assertThat(decision.isDue()).isFalse();
    assertThat(decision.next()).isEqualTo(at("2025-03-04T11:00:00Z"));
    assertThat(decision.untilNext(at("2025-03-04T10:59:00Z"))).isEqualTo(Duration.ofMinutes(1));
  }

  /** The due time is the newest in (last, now], found the same as by walking every time. */
  @Property(tries = 300)
  void dueIsTheNewestTimeSinceTheLast(
      @ForAll @LongRange(min = 0, max = 400L * 24 * 3600) long sinceLast,
      @ForAll @LongRange(min = 0, max = 3 * 24 * 3600) long lastOffset) {
    var schedule = CronSchedule.parse("*/7 3-5,20 * * 1,3");
    Instant last = at("2025-01-01T00:00:00Z").plusSeconds(lastOffset);
    Instant now = last.plusSeconds(sinceLast);
    Instant walked = null;
    for (Instant t = schedule.next(last); !t.isAfter(now); t = schedule.next(t)) {
      walked = t;
    }
    var decision = ScheduleDecision.at(schedule, last, now);
    assertThat(decision.due()).isEqualTo(walked);
    assertThat(decision.next()).isEqualTo(schedule.next(now));
  }
}
