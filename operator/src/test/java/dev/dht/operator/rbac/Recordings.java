package dev.dht.operator.rbac;

import java.util.Collection;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Every operator run of this test JVM ({@link ApiCallRecorder}): which test class, under which
 * rendering of the chart, with which calls. {@code ChartRbacTest} reads them after every other
 * class ran.
 */
public final class Recordings {
  private static final List<Recording> ALL = new CopyOnWriteArrayList<>();

  private Recordings() {}

  /** One operator run: the calls are added to while it runs. */
  public record Recording(String testClass, ChartRbac chart, Collection<ApiCall> calls) {}

  static void add(Recording recording) {
    ALL.add(recording);
  }

  public static List<Recording> all() {
    return List.copyOf(ALL);
  }
}
