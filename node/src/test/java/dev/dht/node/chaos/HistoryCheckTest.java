package dev.dht.node.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.node.chaos.History.Kind;
import dev.dht.node.chaos.History.Op;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HistoryCheckTest {
  private static Op write(long seq, boolean ok, long start, long end) {
    return new Op("k", Kind.WRITE, seq, ok, start, end);
  }

  private static Op delete(long seq, boolean ok, long start, long end) {
    return new Op("k", Kind.DELETE, seq, ok, start, end);
  }

  private static Op read(long seen, long start, long end) {
    return new Op("k", Kind.READ, seen, true, start, end);
  }

  @Test
  void aCleanHistory() {
    var ops =
        List.of(write(1, true, 0, 10), read(1, 11, 12), write(2, false, 20, 30), read(1, 31, 32));
    assertThat(HistoryCheck.check(ops, Map.of("k", 2L)))
        .as("a failed write may apply, or not")
        .isEqualTo(new HistoryCheck.Verdict(4, 1, 0, 0, 0, List.of()));
  }

  @Test
  void aReadOlderThanAnAcknowledgedWriteIsStale() {
    var ops = List.of(write(1, true, 0, 10), write(2, true, 11, 20), read(1, 21, 22));
    assertThat(HistoryCheck.check(ops, Map.of("k", 2L)).stale()).isEqualTo(1);
  }

  @Test
  void aReadConcurrentWithAWriteMaySeeEither() {
    var ops = List.of(write(1, true, 0, 10), write(2, true, 11, 20), read(1, 15, 22));
    assertThat(HistoryCheck.check(ops, Map.of("k", 2L)).clean()).isTrue();
  }

  @Test
  void nothingFoundAfterAnAcknowledgedWriteIsStaleUnlessADeleteMayHaveApplied() {
    var plain = List.of(write(1, true, 0, 10), read(History.ABSENT, 11, 12));
    assertThat(HistoryCheck.check(plain, Map.of("k", 1L)).stale()).isEqualTo(1);
    var failedDelete =
        List.of(write(1, true, 0, 10), delete(2, false, 11, 20), read(History.ABSENT, 21, 22));
    assertThat(HistoryCheck.check(failedDelete, Map.of()).clean()).isTrue();
  }

  @Test
  void aFailedMutationMayApplyAfterLaterAcknowledgedOnes() {
    var ops =
        List.of(
            write(1, false, 0, 3000),
            write(2, true, 3001, 3010),
            read(1, 4000, 4001),
            delete(3, false, 5000, 8000),
            write(4, true, 8001, 8010),
            read(History.ABSENT, 9000, 9001));
    assertThat(HistoryCheck.check(ops, Map.of("k", 1L)).clean()).isTrue();
  }

  @Test
  void aValueBackAfterAnAcknowledgedDeleteIsResurrected() {
    var ops = List.of(write(1, true, 0, 10), delete(2, true, 11, 20), read(1, 21, 22));
    assertThat(HistoryCheck.check(ops, Map.of("k", 1L)))
        .as("read once and left in the end")
        .extracting(HistoryCheck.Verdict::resurrected, v -> v.examples().getFirst())
        .containsExactly(2L, "k: a read saw value 1 after delete 2 was acknowledged");
  }

  @Test
  void anAcknowledgedWriteMissingInTheEndIsLost() {
    var ops = List.of(write(1, true, 0, 10), write(2, true, 11, 20));
    assertThat(HistoryCheck.check(ops, Map.of("k", 1L)).lost()).isEqualTo(1);
    assertThat(HistoryCheck.check(ops, Map.of()).lost()).isEqualTo(1);
    assertThat(HistoryCheck.check(ops, Map.of("k", 2L)).lost()).isZero();
  }
}
