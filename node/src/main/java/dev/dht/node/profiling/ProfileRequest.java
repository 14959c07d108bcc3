package dev.dht.node.profiling;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What to profile and for how long: events from {@code cpu} or {@code wall} (at most one: both
 * sample the threads' stacks), {@code alloc}, {@code lock}, recorded together in one session. Pure.
 */
public record ProfileRequest(Set<Event> events, int seconds) {
  public static final int MAX_SECONDS = 600;

  /** An async-profiler event, and how one session asks for it. */
  public enum Event {
    CPU("event=cpu,interval=10ms"),
    WALL("event=wall,interval=20ms"),
    ALLOC("alloc=512k"),
    LOCK("lock=10us");

    private final String option;

    Event(String option) {
      this.option = option;
    }

    public String lowerName() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** Parses {@code events=cpu,alloc&seconds=30}; IllegalArgumentException with the reason. */
  public static ProfileRequest parse(String events, String seconds) {
    if (events == null || events.isBlank()) {
      throw new IllegalArgumentException("events is required: cpu, wall, alloc, lock (a list)");
    }
    Set<Event> set = new LinkedHashSet<>();
    for (String name : events.split(",")) {
      try {
        set.add(Event.valueOf(name.strip().toUpperCase(Locale.ROOT)));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "unknown event '" + name.strip() + "': cpu, wall, alloc or lock", e);
      }
    }
    if (set.contains(Event.CPU) && set.contains(Event.WALL)) {
      throw new IllegalArgumentException("cpu and wall exclude each other: pick one");
    }
    int s;
    try {
      s = seconds == null ? 30 : Integer.parseInt(seconds.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("seconds is not a number: " + seconds, e);
    }
    if (s < 1 || s > MAX_SECONDS) {
      throw new IllegalArgumentException("seconds must be within 1.." + MAX_SECONDS + ", got " + s);
    }
    return new ProfileRequest(Set.copyOf(set), s);
  }

  /** The async-profiler command that starts the session, recording to {@code jfrFile}. */
  public String startCommand(String jfrFile) {
    List<String> options = new ArrayList<>(List.of("start", "jfr", "file=" + jfrFile));
    for (Event event : Event.values()) {
      if (events.contains(event)) {
        options.add(event.option);
      }
    }
    return String.join(",", options);
  }
}
