package dev.dht.operator.backup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * The cron calculator against examples, and against an oracle: random expressions generated
 * together with the values each field allows (worked out here from how each item was built, not by
 * the parser), checked minute by minute and day by day.
 */
class CronScheduleTest {
  private static Instant at(String text) {
    return Instant.parse(text);
  }

  private static Instant next(String expression, String after) {
    return CronSchedule.parse(expression).next(at(after));
  }

  @Test
  void stepsListsAndRanges() {
    assertThat(next("*/15 * * * *", "2025-03-04T10:07:30Z")).isEqualTo(at("2025-03-04T10:15:00Z"));
    assertThat(next("*/15 * * * *", "2025-03-04T10:45:00Z"))
        .as("strictly after")
        .isEqualTo(at("2025-03-04T11:00:00Z"));
    assertThat(next("0,30 9-17 * * 1-5", "2025-03-07T17:30:00Z"))
        .as("Friday evening: Monday 9:00")
        .isEqualTo(at("2025-03-10T09:00:00Z"));
    assertThat(next("10-50/20 * * * *", "2025-03-04T10:31:00Z"))
        .isEqualTo(at("2025-03-04T10:50:00Z"));
    assertThat(next("5/20 * * * *", "2025-03-04T10:46:00Z"))
        .as("n/step runs from n to the end of the field")
        .isEqualTo(at("2025-03-04T11:05:00Z"));
  }

  @Test
  void sundayIsZeroAndSeven() {
    // 2025-03-09 is a Sunday
    assertThat(next("0 12 * * 0", "2025-03-04T00:00:00Z")).isEqualTo(at("2025-03-09T12:00:00Z"));
    assertThat(next("0 12 * * 7", "2025-03-04T00:00:00Z")).isEqualTo(at("2025-03-09T12:00:00Z"));
    assertThat(next("0 12 * * 6-7", "2025-03-04T00:00:00Z")).isEqualTo(at("2025-03-08T12:00:00Z"));
  }

  @Test
  void bothDayFieldsRestrictedMeansEither() {
    var schedule = CronSchedule.parse("0 0 1 * 1");
    // 2025-03-03 is a Monday, the 1st of April a Tuesday
    assertThat(schedule.next(at("2025-03-01T00:00:00Z"))).isEqualTo(at("2025-03-03T00:00:00Z"));
    assertThat(schedule.next(at("2025-03-31T00:00:00Z"))).isEqualTo(at("2025-04-01T00:00:00Z"));
    assertThat(CronSchedule.parse("0 0 */1 * 1").next(at("2025-03-01T00:00:00Z")))
        .as("a day field starting with * does not restrict: both must match")
        .isEqualTo(at("2025-03-03T00:00:00Z"));
  }

  @Test
  void daysThatSomeMonthsLack() {
    assertThat(next("0 0 31 * *", "2025-03-31T00:00:00Z")).isEqualTo(at("2025-05-31T00:00:00Z"));
    assertThat(next("0 0 29 2 *", "2025-01-01T00:00:00Z")).isEqualTo(at("2028-02-29T00:00:00Z"));
    assertThat(next("0 0 29 2 *", "2096-03-01T00:00:00Z"))
        .as("2100 is no leap year")
        .isEqualTo(at("2104-02-29T00:00:00Z"));
  }

  @Test
  void macros() {
    String after = "2025-03-04T10:07:00Z"; // a Tuesday
    assertThat(next("@hourly", after)).isEqualTo(at("2025-03-04T11:00:00Z"));
    assertThat(next("@daily", after)).isEqualTo(at("2025-03-05T00:00:00Z"));
    assertThat(next("@midnight", after)).isEqualTo(at("2025-03-05T00:00:00Z"));
    assertThat(next("@weekly", after)).isEqualTo(at("2025-03-09T00:00:00Z"));
    assertThat(next("@monthly", after)).isEqualTo(at("2025-04-01T00:00:00Z"));
    assertThat(next("@yearly", after)).isEqualTo(at("2026-01-01T00:00:00Z"));
    assertThat(next(" @Daily ", after)).isEqualTo(at("2025-03-05T00:00:00Z"));
    assertThat(CronSchedule.parse(" @daily ").expression()).isEqualTo("@daily");
  }

  @Test
  void badExpressionsSayWhatIsWrong() {
    assertBad("", "the schedule is empty");
    assertBad("* * * *", "\"* * * *\" has 4 fields, not five");
    assertBad("@fortnightly", "\"@fortnightly\" is not a macro");
    assertBad("61 * * * *", "the minute field's \"61\" is not valid: values must be within 0-59");
    assertBad("* 24 * * *", "the hour field's \"24\" is not valid");
    assertBad("* * 0 * *", "the day-of-month field's \"0\" is not valid");
    assertBad("* * * 13 *", "the month field's \"13\" is not valid");
    assertBad("* * * * 8", "the day-of-week field's \"8\" is not valid");
    assertBad("*/0 * * * *", "a step must be at least 1");
    assertBad("5-1 * * * *", "a range must go upwards (5 > 1)");
    assertBad("a * * * *", "\"a\" is not a number");
    assertBad("1,,2 * * * *", "an empty item in a list");
    assertBad("0 0 30 2 *", "never matches");
    assertBad("0 0 31 4,6 *", "never matches");
  }

  private static void assertBad(String expression, String message) {
    assertThatThrownBy(() -> CronSchedule.parse(expression))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(message);
  }

  /** A field's text and the values it allows, worked out from how it was built. */
  record Field(String text, TreeSet<Integer> values) {
    boolean restricted() {
      return !text.startsWith("*");
    }
  }

  /** An expression and what each of its fields allows (day of week with 7 as 0). */
  record Expression(Field minute, Field hour, Field day, Field month, Field week) {
    String text() {
      return String.join(" ", minute.text(), hour.text(), day.text(), month.text(), week.text());
    }

    boolean dayMatches(LocalDate date) {
      boolean ofMonth = day.values().contains(date.getDayOfMonth());
      int weekday = date.getDayOfWeek() == DayOfWeek.SUNDAY ? 0 : date.getDayOfWeek().getValue();
      boolean ofWeek =
          week.values().contains(weekday) || (weekday == 0 && week.values().contains(7));
      return month.values().contains(date.getMonthValue())
          && (day.restricted() && week.restricted() ? ofMonth || ofWeek : ofMonth && ofWeek);
    }

    boolean matches(LocalDateTime t) {
      return dayMatches(t.toLocalDate())
          && hour.values().contains(t.getHour())
          && minute.values().contains(t.getMinute());
    }
  }

  @Provide
  Arbitrary<Expression> expressions() {
    return Combinators.combine(field(0, 59), field(0, 23), field(1, 31), field(1, 12), field(0, 7))
        .as(Expression::new)
        .filter(e -> {
          try {
            CronSchedule.parse(e.text());
            return true;
          } catch (IllegalArgumentException never) { // the 31st of months of 30 days
            return false;
          }
        });
  }

  private static Arbitrary<Field> field(int min, int max) {
    Arbitrary<Field> item =
        Arbitraries.oneOf(
            Arbitraries.just(new Field("*", range(min, max, 1))),
            Arbitraries.integers()
                .between(1, max - min + 1)
                .map(step -> new Field("*/" + step, range(min, max, step))),
            Arbitraries.integers().between(min, max).map(v -> new Field("" + v, range(v, v, 1))),
            Combinators.combine(
                    Arbitraries.integers().between(min, max),
                    Arbitraries.integers().between(min, max),
                    Arbitraries.integers().between(1, 10))
                .as((a, b, step) -> {
                  int from = Math.min(a, b);
                  int to = Math.max(a, b);
                  return step == 1
                      ? new Field(from + "-" + to, range(from, to, 1))
                      : new Field(from + "-" + to + "/" + step, range(from, to, step));
                }));
    return item.list()
        .ofMinSize(1)
        .ofMaxSize(3)
        .map(items -> {
          var values = new TreeSet<Integer>();
          List<String> texts = new ArrayList<>();
          for (var f : items) {
            values.addAll(f.values());
            texts.add(f.text());
          }
          return new Field(String.join(",", texts), values);
        });
  }

  private static TreeSet<Integer> range(int from, int to, int step) {
    var values = new TreeSet<Integer>();
    for (int v = from; v <= to; v += step) {
      values.add(v);
    }
    return values;
  }

  @Provide
  Arbitrary<Instant> instants() {
    return Arbitraries.longs()
        .between(
            at("2000-01-01T00:00:00Z").getEpochSecond(),
            at("2090-01-01T00:00:00Z").getEpochSecond())
        .map(Instant::ofEpochSecond);
  }

  @Property(tries = 300)
  void nextIsTheFirstMatchingMinuteAfter(
      @ForAll("expressions") Expression expression, @ForAll("instants") Instant after) {
    Instant next = CronSchedule.parse(expression.text()).next(after);
    var t = LocalDateTime.ofInstant(next, ZoneOffset.UTC);
    assertThat(next).isAfter(after);
    assertThat(t.getSecond()).isZero();
    assertThat(t.getNano()).isZero();
    assertThat(expression.matches(t)).as("%s matches %s", t, expression.text()).isTrue();
    // no matching minute in between: day by day, and within a matching day, the allowed minutes
    var start = LocalDateTime.ofInstant(after, ZoneOffset.UTC);
    for (LocalDate day = start.toLocalDate();
        !day.isAfter(t.toLocalDate());
        day = day.plusDays(1)) {
      if (!expression.dayMatches(day)) {
        continue;
      }
      for (int hour : expression.hour().values()) {
        for (int minute : expression.minute().values()) {
          var candidate = day.atTime(hour, minute).toInstant(ZoneOffset.UTC);
          assertThat(candidate.isAfter(after) && candidate.isBefore(next))
              .as(
                  "%s matches %s and lies between %s and %s",
                  candidate, expression.text(), after, next)
              .isFalse();
        }
      }
    }
  }

  @Property(tries = 300)
  void matchesAgreesWithTheFieldsValues(
      @ForAll("expressions") Expression expression, @ForAll("instants") Instant time) {
    var minute = time.truncatedTo(ChronoUnit.MINUTES);
    assertThat(CronSchedule.parse(expression.text()).matches(minute))
        .isEqualTo(expression.matches(LocalDateTime.ofInstant(minute, ZoneOffset.UTC)));
  }

  @Property(tries = 200)
  void aMatchingMinuteIsNextOfTheMinuteBefore(
      @ForAll("expressions") Expression expression, @ForAll("instants") Instant after) {
    var schedule = CronSchedule.parse(expression.text());
    Instant next = schedule.next(after);
    assertThat(schedule.next(next.minusSeconds(60))).isEqualTo(next);
    assertThat(schedule.next(next.minusMillis(1))).isEqualTo(next);
    assertThat(schedule.next(next)).isAfter(next);
  }
}
