package dev.dht.operator.loadtest.result;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.operator.loadtest.DhtLoadTestSpec;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class AbortRuleTest {
  static DhtLoadTestSpec.Thresholds thresholds(Double p99Ms, Double maxErrorRatio) {
    var t = new DhtLoadTestSpec.Thresholds();
    t.setP99Ms(p99Ms);
    t.setMaxErrorRatio(maxErrorRatio);
    t.setAbortOnFail(true);
    return t;
  }

  /** {@code fast} requests of 1 ms and {@code slow} of 500 ms. */
  static Histogram latencies(int fast, int slow) {
    var h = new Histogram(3);
    h.recordValueWithCount(1_000, Math.max(fast, 0));
    if (slow > 0) {
      h.recordValueWithCount(500_000, slow);
    }
    return h;
  }

  @Test
  void aRunIsStoppedOnlyOnceItsP99CanNoLongerBeMet() {
    var t = thresholds(10.0, null);
    // 10,000 requests will be measured: up to 100 may be slower than 10 ms
    assertThat(AbortRule.check(t, 10_000, latencies(900, 100), 0)).isEmpty();
    assertThat(AbortRule.check(t, 10_000, latencies(900, 101), 0))
        .hasValueSatisfying(why ->
            assertThat(why)
                .isEqualTo(
                    "p99 can no longer be 10 ms or less: 101 requests took longer already, more"
                        + " than 1% of the 10000 the test measures"));
  }

  @Test
  void oneSlowSecondEarlyInALongRunDoesNotStopIt() {
    // 60 s at 1000/s: one second of 1000 slow answers is 1.7% of the run, a second at 500
    // slow answers 0.8%: the rest of the run can still bring p99 under the limit
    var t = thresholds(10.0, null);
    assertThat(AbortRule.check(t, 60_000, latencies(1_500, 500), 0)).isEmpty();
    assertThat(AbortRule.check(t, 60_000, latencies(1_500, 1_000), 0)).isPresent();
  }

  @Test
  void errorsStopARunOnceTheyExceedWhatTheWholeRunMayHave() {
    var t = thresholds(null, 0.01);
    assertThat(AbortRule.check(t, 10_000, latencies(500, 0), 100)).isEmpty();
    assertThat(AbortRule.check(t, 10_000, latencies(500, 0), 101))
        .hasValueSatisfying(why -> assertThat(why).startsWith("101 requests failed already"));
  }

  @Test
  void withoutAbortOnFailNothingStops() {
    var t = thresholds(10.0, 0.0);
    t.setAbortOnFail(null);
    assertThat(AbortRule.check(t, 100, latencies(0, 100), 100)).isEmpty();
    assertThat(AbortRule.check(null, 100, latencies(0, 100), 100)).isEmpty();
  }
}
