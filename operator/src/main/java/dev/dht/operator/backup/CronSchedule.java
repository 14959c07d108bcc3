package dev.dht.operator.backup;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Map;

/**
 * A cron schedule in UTC, as a DhtScheduledBackup's spec.schedule gives it: five fields (minute
 * 0-59, hour 0-23, day of month 1-31, month 1-12, day of week 0-7 with 0 and 7 Sunday), each a list
 * of {@code *}, values, ranges and steps ({@code 0,30}, {@code 1-5}, {@code *}{@code /15}), or one
 * of the macros @hourly, @daily (@midnight), @weekly, @monthly, @yearly (@annually).
 *
 * <p>When both day fields are restricted (neither starts with {@code *}), a day matches if either
 * does, as in every cron since Vixie's: {@code 0 0 1 * 1} is the 1st of each month and every
 * Monday.
 */
public final class CronSchedule {
  private static final Map<String, String> MACROS =
      Map.of(
          "@yearly", "0 0 1 1 *",
          "@annually", "0 0 1 1 *",
          "@monthly", "0 0 1 * *",
          "@weekly", "0 0 * * 0",
          "@daily", "0 0 * * *",
          "@midnight", "0 0 * * *",
          "@hourly", "0 * * * *");

  /**
   * How far {@link #next} looks: the longest gap between two matches of a schedule that matches at
   * all is that of the 29th of February, 8 years (2096 to 2104).
   */
  private static final long HORIZON_YEARS = 9;

  private final String expression;
  private final CronField minutes;
  private final CronField hours;
  private final CronField daysOfMonth;
  private final CronField months;
  private final CronField daysOfWeek;

  private CronSchedule(String expression, String[] fields) {
    this.expression = expression;
    this.minutes = CronField.parse("minute", 0, 59, fields[0]);
    this.hours = CronField.parse("hour", 0, 23, fields[1]);
    this.daysOfMonth = CronField.parse("day-of-month", 1, 31, fields[2]);
    this.months = CronField.parse("month", 1, 12, fields[3]);
    var week = CronField.parse("day-of-week", 0, 7, fields[4]);
    if (week.allows(7)) { // 7 is Sunday too
      week.allowed().set(0);
      week.allowed().clear(7);
    }
    this.daysOfWeek = week;
  }

  /**
   * The schedule {@code expression} gives.
   *
   * @throws IllegalArgumentException saying what is wrong with it, if it is not a schedule or never
   *     matches (such as the 30th of February)
   */
  public static CronSchedule parse(String expression) {
    if (expression == null || expression.isBlank()) {
      throw new IllegalArgumentException("the schedule is empty");
    }
    String trimmed = expression.strip();
    String expanded = trimmed;
    if (trimmed.startsWith("@")) {
      expanded = MACROS.get(trimmed.toLowerCase(Locale.ROOT));
      if (expanded == null) {
        throw new IllegalArgumentException(
            "\""
                + trimmed
                + "\" is not a macro: use @hourly, @daily, @weekly, @monthly or @yearly, or five"
                + " fields");
      }
    }
    String[] fields = expanded.split("\\s+");
    if (fields.length != 5) {
      throw new IllegalArgumentException(
          "\""
              + trimmed
              + "\" has "
              + fields.length
              + " fields, not five (minute hour day-of-month month day-of-week)");
    }
    CronSchedule schedule;
    try {
      schedule = new CronSchedule(trimmed, fields);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("\"" + trimmed + "\": " + e.getMessage(), e);
    }
    if (schedule.search(Instant.parse("2000-01-01T00:00:00Z")) == null) {
      throw new IllegalArgumentException(
          "\"" + trimmed + "\" never matches (a day that its months do not have)");
    }
    return schedule;
  }

  /** The expression as given (a macro stays a macro), without surrounding blanks. */
  public String expression() {
    return expression;
  }

  /** Whether the minute starting at {@code time} (seconds ignored) is one of the schedule's. */
  public boolean matches(Instant time) {
    var t = LocalDateTime.ofInstant(time, ZoneOffset.UTC);
    return months.allows(t.getMonthValue())
        && dayMatches(t.toLocalDate())
        && hours.allows(t.getHour())
        && minutes.allows(t.getMinute());
  }

  /** The first time of the schedule strictly after {@code after}: the start of a minute. */
  public Instant next(Instant after) {
    Instant found = search(after);
    if (found == null) { // parse refused schedules without a match in any 9 years
      throw new IllegalStateException("no time of " + expression + " after " + after);
    }
    return found;
  }

  private Instant search(Instant after) {
    var t =
        LocalDateTime.ofInstant(after, ZoneOffset.UTC)
            .truncatedTo(ChronoUnit.MINUTES)
            .plusMinutes(1);
    var end = t.plusYears(HORIZON_YEARS);
    while (t.isBefore(end)) {
      if (!months.allows(t.getMonthValue())) {
        t = t.toLocalDate().withDayOfMonth(1).plusMonths(1).atStartOfDay();
      } else if (!dayMatches(t.toLocalDate())) {
        t = t.toLocalDate().plusDays(1).atStartOfDay();
      } else if (!hours.allows(t.getHour())) {
        int hour = hours.nextAllowed(t.getHour());
        t = hour < 0 ? t.toLocalDate().plusDays(1).atStartOfDay() : t.toLocalDate().atTime(hour, 0);
      } else if (!minutes.allows(t.getMinute())) {
        int minute = minutes.nextAllowed(t.getMinute());
        t = minute < 0 ? t.truncatedTo(ChronoUnit.HOURS).plusHours(1) : t.withMinute(minute);
      } else {
        return t.toInstant(ZoneOffset.UTC);
      }
    }
    return null;
  }

  private boolean dayMatches(LocalDate day) {
    boolean ofMonth = daysOfMonth.allows(day.getDayOfMonth());
    boolean ofWeek = daysOfWeek.allows(day.getDayOfWeek().getValue() % 7);
    if (daysOfMonth.restricted() && daysOfWeek.restricted()) {
      return ofMonth || ofWeek;
    }
    return ofMonth && ofWeek;
  }

  @Override
  public String toString() {
    return expression;
  }
}
