package dev.dht.operator.backup;

import java.util.BitSet;

/**
 * One of a cron expression's five fields: the values it allows, parsed from a comma-separated list
 * of {@code *}, {@code n} or {@code a-b}, each optionally followed by {@code /step} ({@code n/step}
 * runs from n to the field's maximum). Whether it restricts the day matters for the two day fields
 * ({@link CronSchedule}): a field that starts with {@code *} does not, as in Vixie cron.
 */
record CronField(String name, int min, int max, BitSet allowed, boolean restricted) {

  /** Parses {@code text} as the field {@code name} of values {@code min..max}. */
  static CronField parse(String name, int min, int max, String text) {
    var allowed = new BitSet(max + 1);
    for (String part : text.split(",", -1)) {
      addPart(name, min, max, part, allowed);
    }
    return new CronField(name, min, max, allowed, !text.startsWith("*"));
  }

  boolean allows(int value) {
    return allowed.get(value);
  }

  /** The smallest allowed value at or above {@code value}, or -1 if none. */
  int nextAllowed(int value) {
    return value > max ? -1 : allowed.nextSetBit(value);
  }

  private static void addPart(String name, int min, int max, String part, BitSet allowed) {
    if (part.isEmpty()) {
      throw bad(name, part, "an empty item in a list");
    }
    String range = part;
    int step = 1;
    int slash = part.indexOf('/');
    if (slash >= 0) {
      range = part.substring(0, slash);
      step = number(name, part, part.substring(slash + 1));
      if (step < 1) {
        throw bad(name, part, "a step must be at least 1");
      }
    }
    int from;
    int to;
    if (range.equals("*")) {
      from = min;
      to = max;
    } else if (range.contains("-")) {
      int dash = range.indexOf('-');
      from = number(name, part, range.substring(0, dash));
      to = number(name, part, range.substring(dash + 1));
      if (from > to) {
        throw bad(name, part, "a range must go upwards (" + from + " > " + to + ")");
      }
    } else {
      from = number(name, part, range);
      to = slash >= 0 ? max : from;
    }
    if (from < min || to > max) {
      throw bad(name, part, "values must be within " + min + "-" + max);
    }
    for (int v = from; v <= to; v += step) {
      allowed.set(v);
    }
  }

  private static int number(String name, String part, String digits) {
    if (digits.isEmpty() || digits.length() > 4 || !digits.chars().allMatch(Character::isDigit)) {
      throw bad(name, part, "\"" + digits + "\" is not a number");
    }
    return Integer.parseInt(digits);
  }

  private static IllegalArgumentException bad(String name, String part, String why) {
    return new IllegalArgumentException(
        "the " + name + " field's \"" + part + "\" is not valid: " + why);
  }
}
