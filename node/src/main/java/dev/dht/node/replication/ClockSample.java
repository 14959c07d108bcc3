package dev.dht.node.replication;

import dev.dht.node.cluster.ClockOffsets;
import io.vertx.core.http.HttpClientResponse;

/** Takes a clock sample from an internal answer's {@link InternalApi#WALL_CLOCK_HEADER}. */
final class ClockSample {
  private ClockSample() {}

  /**
   * Keeps the peer's wall clock of {@code response} to a request sent at {@code sentNanos} ({@link
   * System#nanoTime}), whatever its status; an answer without the header (a node of an earlier
   * version) or with a malformed one is no sample.
   */
  static void take(ClockOffsets offsets, String peer, HttpClientResponse response, long sentNanos) {
    String wall = response.getHeader(InternalApi.WALL_CLOCK_HEADER);
    if (wall == null) {
      return;
    }
    try {
      offsets.sample(
          peer, Long.parseLong(wall), sentNanos / 1_000_000, System.nanoTime() / 1_000_000);
    } catch (NumberFormatException e) {
      // no sample
    }
  }
}
