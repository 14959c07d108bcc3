package dev.dht.operator.backup;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Map;

/**
 * How a DhtScheduledBackup's DhtBackups are told apart: named {@code <schedule>-<yyyymmddhhmmss>}
 * of their scheduled time (UTC), labelled {@link #LABEL} with the schedule's name and annotated
 * {@link #TIME_ANNOTATION} with the scheduled time. A label rather than an owner reference: the
 * garbage collector would delete every backup with the schedule, and deleting a DhtBackup deletes
 * it from the store.
 */
public final class ScheduledBackups {
  /** The label naming the DhtScheduledBackup that made a DhtBackup. */
  public static final String LABEL = "dht.dev/scheduled-backup";

  /** The annotation with a scheduled backup's scheduled time (RFC 3339). */
  public static final String TIME_ANNOTATION = "dht.dev/scheduled-time";

  private static final DateTimeFormatter STAMP =
      DateTimeFormatter.ofPattern("yyyyMMddHHmmss").withZone(ZoneOffset.UTC);

  private ScheduledBackups() {}

  /** The name of the backup of schedule {@code schedule} at {@code time}. */
  public static String name(String schedule, Instant time) {
    return schedule + "-" + STAMP.format(time);
  }

  /**
   * The scheduled time of a backup from its annotations, else {@code fallback} (its creation: a
   * backup labelled by hand).
   */
  public static Instant time(Map<String, String> annotations, Instant fallback) {
    String text = annotations == null ? null : annotations.get(TIME_ANNOTATION);
    if (text == null) {
      return fallback;
    }
    try {
      return Instant.parse(text);
    } catch (DateTimeParseException e) {
      return fallback;
    }
  }
}
