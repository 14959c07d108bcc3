package dev.dht.operator.backup;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * What a DhtScheduledBackup does at {@code now}: make the backup of scheduled time {@code due}
 * (null: none is due), and look again at {@code next}, the schedule's first time after now.
 *
 * <p>Due is the newest time of the schedule after the last one taken and at or before now: times
 * missed while the operator was down (or while a backup ran, or while suspended) are taken once, as
 * one backup, not once each.
 */
public record ScheduleDecision(Instant due, Instant next) {
  /**
   * Windows before now in which the newest time is looked for, smallest first: walking the schedule
   * from a last time long ago minute by minute would take long; a window in which the schedule has
   * a time bounds the walk by that window's times.
   */
  private static final List<Duration> WINDOWS =
      List.of(
          Duration.ofHours(1),
          Duration.ofDays(1),
          Duration.ofDays(32),
          Duration.ofDays(366),
          Duration.ofDays(9 * 366));

  /**
   * The decision at {@code now} for {@code schedule}, whose last time taken is {@code last} (the
   * status's lastScheduleTime, or the resource's creation: a new schedule's first backup is at its
   * first time after it was made).
   */
  public static ScheduleDecision at(CronSchedule schedule, Instant last, Instant now) {
    Instant next = schedule.next(now);
    if (!now.isAfter(last)) {
      return new ScheduleDecision(null, next);
    }
    return new ScheduleDecision(newestBetween(schedule, last, now), next);
  }

  /** The newest time of the schedule in (last, now], or null. */
  static Instant newestBetween(CronSchedule schedule, Instant last, Instant now) {
    for (Duration window : WINDOWS) {
      Instant from = now.minus(window);
      boolean whole = !from.isAfter(last);
      if (whole) {
        from = last;
      }
      Instant t = schedule.next(from);
      if (!t.isAfter(now)) {
        Instant newest = t;
        for (Instant n = schedule.next(t); !n.isAfter(now); n = schedule.next(n)) {
          newest = n;
        }
        return newest;
      }
      if (whole) {
        return null;
      }
    }
    return null; // no time in 9 years: parse refuses such schedules
  }

  /** Whether a backup is to be made now. */
  public boolean isDue() {
    return due != null;
  }

  /** How long from {@code now} until the next time, at least a second. */
  public Duration untilNext(Instant now) {
    Duration wait = Duration.between(now, next);
    return wait.compareTo(Duration.ofSeconds(1)) < 0 ? Duration.ofSeconds(1) : wait;
  }
}
