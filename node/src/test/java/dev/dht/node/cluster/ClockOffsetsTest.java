package dev.dht.node.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

class ClockOffsetsTest {
  private static final long MAX_OFFSET_MS = 500;

  /** This node's wall and monotonic clocks, moved by the tests, and its offsets. */
  private static final class Node {
    final AtomicLong wall = new AtomicLong(1_700_000_000_000L);
    final AtomicLong mono = new AtomicLong(5_000);
    final ClockOffsets offsets = new ClockOffsets(wall::get, mono::get, MAX_OFFSET_MS);

    /** A round trip to {@code peer}, whose clock is {@code peerOffsetMs} off this node's. */
    void exchange(String peer, long peerOffsetMs, long roundTripMs) {
      long sent = mono.get();
      long peerWall = wall.get() + roundTripMs / 2 + peerOffsetMs;
      mono.addAndGet(roundTripMs);
      wall.addAndGet(roundTripMs);
      offsets.sample(peer, peerWall, sent, mono.get());
    }

    ClockOffsets.Verdict verdict() {
      return offsets.verdict();
    }
  }

  /** For the examples; each property try makes its own. */
  private final Node node = new Node();

  private final AtomicLong wall = node.wall;
  private final AtomicLong mono = node.mono;
  private final ClockOffsets offsets = node.offsets;

  private void exchange(String peer, long peerOffsetMs, long roundTripMs) {
    node.exchange(peer, peerOffsetMs, roundTripMs);
  }

  @Property
  void theOffsetMeasuredIsTheTrueOneWithinHalfTheRoundTrip(
      @ForAll @LongRange(min = -200_000, max = 200_000) long peerOffset,
      @ForAll @IntRange(min = 0, max = 2_000) int toPeer,
      @ForAll @IntRange(min = 0, max = 2_000) int back) {
    Node clocks = new Node();
    AtomicLong wall = clocks.wall;
    AtomicLong mono = clocks.mono;
    long sent = mono.get();
    long peerWall = wall.get() + toPeer + peerOffset; // read when the request arrives
    mono.addAndGet(toPeer + back);
    wall.addAndGet(toPeer + back);
    clocks.offsets.sample("a", peerWall, sent, mono.get());
    long measured = -clocks.verdict().offsetMs();
    assertThat(Math.abs(measured - peerOffset)).isLessThanOrEqualTo((toPeer + back + 1) / 2);
  }

  @Property
  void fencedExactlyWhenAMajorityOfThePeersMeasuredIsOut(
      @ForAll @IntRange(min = 0, max = 7) int out, @ForAll @IntRange(min = 0, max = 7) int in) {
    Node clocks = new Node();
    for (int p = 0; p < out; p++) {
      clocks.exchange("out-" + p, p % 2 == 0 ? 90_000 : -2_000, 2);
    }
    for (int p = 0; p < in; p++) {
      clocks.exchange("in-" + p, 100, 2);
    }
    ClockOffsets.Verdict verdict = clocks.verdict();
    assertThat(verdict.peersMeasured()).isEqualTo(out + in);
    assertThat(verdict.peersOut()).isEqualTo(out);
    assertThat(verdict.fenced()).isEqualTo(out > in);
    assertThat(verdict.reason() != null).isEqualTo(out > in);
    assertThat(clocks.offsets.fencedReason()).isEqualTo(verdict.reason());
  }

  @Test
  void noSamplesNoFence() {
    assertThat(offsets.verdict()).isEqualTo(new ClockOffsets.Verdict(false, 0, 0, 0, null));
    assertThat(offsets.fencedReason()).isNull();
    assertThat(offsets.ageMs("a")).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void aStepOfThisNodesWallClockFencesItAtOnceAndItsReturnUnfencesIt() {
    exchange("a", 0, 1);
    exchange("b", 3, 1);
    assertThat(offsets.verdict().fenced()).isFalse();

    wall.addAndGet(120_000); // no new sample: the monotonic clock did not move
    ClockOffsets.Verdict ahead = offsets.verdict();
    assertThat(ahead.fenced()).isTrue();
    assertThat(ahead.offsetMs()).isBetween(119_990L, 120_010L);
    assertThat(ahead.reason()).contains("ahead of").contains("2 of the 2");
    assertThat(offsets.fencedReason()).isEqualTo(ahead.reason());

    wall.addAndGet(-210_000);
    assertThat(offsets.verdict().reason()).contains("behind");

    wall.addAndGet(90_000);
    assertThat(offsets.verdict().fenced()).isFalse();
  }

  @Test
  void aPeerOutOnlyWithinTheErrorOfItsSampleDoesNotCount() {
    exchange("slow", 1_000, 1_200); // 1000 ms off, but ± 600 ms
    assertThat(offsets.verdict().peersOut()).isZero();
    exchange("slow", 1_000, 10);
    assertThat(offsets.verdict().peersOut()).isOne();
  }

  @Test
  void peersNotMeasuredRecentlyDoNotCount() {
    exchange("gone", 60_000, 1);
    mono.addAndGet(ClockOffsets.RECENT_MS + 1);
    wall.addAndGet(ClockOffsets.RECENT_MS + 1);
    exchange("here", 0, 1);
    ClockOffsets.Verdict verdict = offsets.verdict();
    assertThat(verdict.peersMeasured()).isOne();
    assertThat(verdict.fenced()).isFalse();
    assertThat(offsets.ageMs("here")).isZero();
  }
}
