package dev.dht.operator.loadtest.profile;

import dev.dht.operator.loadtest.DhtLoadTestStatus;
import dev.dht.operator.loadtest.job.GeneratorProgress;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;

/**
 * Whether the operator asks the profiled nodes to start now, and for how long: once, at its first
 * look at the generators after their measured window opened, for what is left of the window, so
 * that the warm-up is never in the flame graphs. The generators report the opening on their next
 * whole second and are asked every few seconds, so the profile starts up to about 3 s into the
 * window and ends with it. Pure.
 */
public final class ProfileStart {
  /** A node profiles at most this long: its {@code POST /v0/admin/profile} refuses more. */
  static final long MAX_SECONDS = 600;

  private ProfileStart() {}

  /**
   * The seconds to profile for, or empty: not now (nothing to profile, asked already, the run was
   * stopped, the window has not opened, or less than a second of it is left).
   *
   * @param profiled the test profiles some node
   * @param status the test's status so far (its {@code profile} says the nodes were asked)
   * @param seen what each generator last reported
   * @param duration the measured window's length (spec.duration)
   */
  public static OptionalLong seconds(
      boolean profiled, DhtLoadTestStatus status, List<GeneratorProgress> seen, Duration duration) {
    if (!profiled || status.getProfile() != null || status.getAborted() != null) {
      return OptionalLong.empty();
    }
    var measured =
        seen.stream()
            .filter(g -> "running".equals(g.phase()) && g.measuring())
            .mapToDouble(GeneratorProgress::measuredSeconds)
            .max();
    if (measured.isEmpty()) {
      return OptionalLong.empty();
    }
    double left = duration.toMillis() / 1000.0 - measured.getAsDouble();
    if (left < 1) {
      return OptionalLong.empty();
    }
    return OptionalLong.of(Math.min(MAX_SECONDS, Math.round(left)));
  }
}
