package dev.dht.node.cluster;

import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * How far this node's wall clock is from its peers', measured over the exchanges it makes with them
 * anyway (every internal answer carries the peer's wall clock), and whether it must therefore fence
 * itself: when it is out by more than the maximum clock offset, ahead or behind, from a majority of
 * the peers it measured recently, as CockroachDB's nodes do. A clock out from only a minority is
 * theirs to fix, not this node's.
 *
 * <p>A sample is the peer's wall clock at the midpoint of a round trip, with half the round trip as
 * its error; a peer counts as out only when the offset is larger than the maximum even after the
 * error is taken off. The sample is kept against this node's monotonic clock, not its wall clock:
 * the offset is re-derived from the wall clock each time it is asked for, so a step of this node's
 * own wall clock shows at once, before any new sample, and the node fences itself before it issues
 * a single timestamp from the jumped clock. A peer's own step shows with its next sample.
 *
 * <p>Pure: both clocks are given, and nothing here does I/O; safe to use from any thread.
 */
public final class ClockOffsets implements HybridClock.Fence {
  /** A peer whose latest sample is older than this does not count (it may be down). */
  public static final long RECENT_MS = 10_000;

  /** The peer's wall clock minus this node's monotonic millis at the midpoint, and its error. */
  private record Sample(long peerWallMinusMonoMs, long errorMs, long takenMonoMs) {}

  /**
   * What the samples say now: whether the node is fenced, its median offset to the peers it
   * measured recently (positive: its clock is ahead of theirs), how many it measured and how many
   * of them are out, and the reason (null when not fenced).
   */
  public record Verdict(
      boolean fenced, long offsetMs, int peersMeasured, int peersOut, String reason) {}

  private final LongSupplier wallMillis;
  private final LongSupplier monoMillis;
  private final long maxOffsetMs;
  private final Map<String, Sample> samples = new ConcurrentHashMap<>();

  public ClockOffsets(LongSupplier wallMillis, LongSupplier monoMillis, long maxOffsetMs) {
    this.wallMillis = wallMillis;
    this.monoMillis = monoMillis;
    this.maxOffsetMs = maxOffsetMs;
  }

  /** The node's own clocks: {@link System#currentTimeMillis} and {@link System#nanoTime}. */
  public static ClockOffsets ofSystem(long maxOffsetMs) {
    return new ClockOffsets(
        System::currentTimeMillis, () -> System.nanoTime() / 1_000_000, maxOffsetMs);
  }

  /**
   * Keeps {@code peerWallMs}, read by {@code peer} between {@code sentMonoMs} and {@code
   * receivedMonoMs} of this node's monotonic clock, as that peer's latest sample.
   */
  public void sample(String peer, long peerWallMs, long sentMonoMs, long receivedMonoMs) {
    long roundTrip = Math.max(0, receivedMonoMs - sentMonoMs);
    long midpoint = sentMonoMs + roundTrip / 2;
    samples.put(peer, new Sample(peerWallMs - midpoint, (roundTrip + 1) / 2, receivedMonoMs));
  }

  /** Milliseconds since {@code peer}'s latest sample; {@link Long#MAX_VALUE} if it has none. */
  public long ageMs(String peer) {
    Sample s = samples.get(peer);
    return s == null ? Long.MAX_VALUE : monoMillis.getAsLong() - s.takenMonoMs();
  }

  public Verdict verdict() {
    long mono = monoMillis.getAsLong();
    long wallMinusMono = wallMillis.getAsLong() - mono;
    long[] offsets = new long[samples.size()];
    int measured = 0;
    int out = 0;
    for (Sample s : samples.values()) {
      if (mono - s.takenMonoMs() <= RECENT_MS && measured < offsets.length) {
        offsets[measured++] = wallMinusMono - s.peerWallMinusMonoMs();
        out += isOut(s, wallMinusMono) ? 1 : 0;
      }
    }
    Arrays.sort(offsets, 0, measured);
    long median = measured == 0 ? 0 : offsets[measured / 2];
    boolean fenced = 2 * out > measured;
    return new Verdict(
        fenced, median, measured, out, fenced ? reason(median, out, measured) : null);
  }

  /** Out by more than the maximum offset, even with the sample's error taken off. */
  private boolean isOut(Sample s, long wallMinusMono) {
    return Math.abs(wallMinusMono - s.peerWallMinusMonoMs()) - s.errorMs() > maxOffsetMs;
  }

  private String reason(long median, int out, int measured) {
    return "clock fenced: this node's clock is "
        + Math.abs(median)
        + " ms "
        + (median > 0 ? "ahead of" : "behind")
        + " its peers' ("
        + out
        + " of the "
        + measured
        + " it measured are out by more than the maximum clock offset of "
        + maxOffsetMs
        + " ms): it coordinates no writes and serves no replica until its clock is back; check"
        + " its clock (NTP)";
  }

  /** What every write asks: counts only, and the whole {@link #verdict} when fenced. */
  @Override
  public String fencedReason() {
    long mono = monoMillis.getAsLong();
    long wallMinusMono = wallMillis.getAsLong() - mono;
    int measured = 0;
    int out = 0;
    for (Sample s : samples.values()) {
      if (mono - s.takenMonoMs() <= RECENT_MS) {
        measured++;
        out += isOut(s, wallMinusMono) ? 1 : 0;
      }
    }
    return 2 * out > measured ? verdict().reason() : null;
  }
}
