package dev.dht.operator.loadtest.result;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.operator.loadtest.DhtLoadTestSpec.Thresholds;
import dev.dht.operator.loadtest.DhtLoadTestStatus.Latency;
import dev.dht.operator.loadtest.DhtLoadTestStatus.Results;
import org.junit.jupiter.api.Test;

class VerdictTest {

  private static Results results(long requests, long errors, long non2xx, Double p99, Double p999) {
    var r = new Results();
    r.setRequests(requests);
    r.setErrors(errors);
    r.setNon2xx(non2xx);
    r.setNotFound(0L);
    r.setAchievedRate(1000.0);
    r.setLatencyMs(new Latency(0.9, 1.8, p99, p999, 22.3));
    return r;
  }

  private static Thresholds thresholds(Double p99, Double p999, Double errorRatio) {
    var t = new Thresholds();
    t.setP99Ms(p99);
    t.setP999Ms(p999);
    t.setMaxErrorRatio(errorRatio);
    return t;
  }

  @Test
  void passesWhenEveryThresholdHolds() {
    var verdict = Verdict.judge(results(600_000, 0, 0, 4.1, 9.7), thresholds(10.0, 50.0, 0.001));
    assertThat(verdict.passed()).isTrue();
    assertThat(verdict.text()).isEqualTo("Passed");
    assertThat(verdict.reason()).isEqualTo(Verdict.THRESHOLDS_MET);
    assertThat(verdict.message()).contains("p99 4.1 ms <= 10 ms").contains("p99.9 9.7 ms <= 50 ms");
    assertThat(verdict.failures()).isEmpty();
  }

  @Test
  void aThresholdEqualToTheResultPasses() {
    assertThat(Verdict.judge(results(100, 1, 0, 10.0, 50.0), thresholds(10.0, 50.0, 0.01)).passed())
        .isTrue();
  }

  @Test
  void eachExceededThresholdIsAReason() {
    var verdict = Verdict.judge(results(1000, 2, 1, 12.5, 9.0), thresholds(10.0, 50.0, 0.001));
    assertThat(verdict.passed()).isFalse();
    assertThat(verdict.text()).isEqualTo("Failed");
    assertThat(verdict.reason()).isEqualTo(Verdict.THRESHOLDS_EXCEEDED);
    assertThat(verdict.failures())
        .containsExactly(
            "p99 12.5 ms > 10 ms", "error ratio 0.003 (2 errors + 1 non-2xx of 1000) > 0.001");
    assertThat(verdict.message())
        .startsWith("p99 12.5 ms > 10 ms;")
        .contains("p99.9 9 ms <= 50 ms");
  }

  @Test
  void non2xxAnswersCountAsErrors() {
    var verdict = Verdict.judge(results(100, 0, 5, 1.0, 1.0), thresholds(null, null, 0.01));
    assertThat(verdict.failures())
        .containsExactly("error ratio 0.05 (0 errors + 5 non-2xx of 100) > 0.01");
  }

  @Test
  void absentThresholdsAreNotChecked() {
    var onlyP999 = Verdict.judge(results(100, 50, 50, 999.0, 5.0), thresholds(null, 10.0, null));
    assertThat(onlyP999.passed()).isTrue();
    assertThat(onlyP999.message()).isEqualTo("p99.9 5 ms <= 10 ms");

    var none = Verdict.judge(results(100, 50, 0, 999.0, 999.0), null);
    assertThat(none.passed()).isTrue();
    assertThat(none.reason()).isEqualTo(Verdict.NO_THRESHOLDS);
    assertThat(Verdict.judge(results(1, 0, 0, 1.0, 1.0), new Thresholds()).reason())
        .isEqualTo(Verdict.NO_THRESHOLDS);
  }

  @Test
  void zeroRequestsNeverPass() {
    var verdict = Verdict.judge(results(0, 0, 0, null, null), null);
    assertThat(verdict.passed()).isFalse();
    assertThat(verdict.reason()).isEqualTo(Verdict.NO_REQUESTS);
    assertThat(Verdict.judge(results(0, 0, 0, 0.0, 0.0), thresholds(10.0, 10.0, 1.0)).passed())
        .isFalse();
  }

  @Test
  void anUnmeasuredPercentileFailsItsThreshold() {
    var verdict = Verdict.judge(results(10, 0, 0, null, 1.0), thresholds(10.0, null, null));
    assertThat(verdict.passed()).isFalse();
    assertThat(verdict.failures()).containsExactly("p99 unknown (not measured), limit 10 ms");
  }

  @Test
  void aFailedRunFailsTheVerdict() {
    var verdict = Verdict.runFailed("DeadlineExceeded");
    assertThat(verdict.passed()).isFalse();
    assertThat(verdict.reason()).isEqualTo(Verdict.RUN_FAILED);
    assertThat(verdict.message()).contains("DeadlineExceeded");
  }

  @Test
  void numbersArePrintedPlainly() {
    assertThat(Verdict.format(0.0001)).isEqualTo("0.0001");
    assertThat(Verdict.format(10.0)).isEqualTo("10");
    assertThat(Verdict.format(9998.7)).isEqualTo("9998.7");
    assertThat(Verdict.format(1.0 / 3)).isEqualTo("0.333333");
    assertThat(Verdict.format(null)).isEqualTo("n/a");
  }
}
