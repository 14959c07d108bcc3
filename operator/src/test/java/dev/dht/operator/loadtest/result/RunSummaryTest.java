package dev.dht.operator.loadtest.result;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dht.operator.loadtest.LoadTests;
import org.junit.jupiter.api.Test;

class RunSummaryTest {

  @Test
  void readsTheLoadGeneratorsTerminationMessage() {
    var summary = RunSummary.parse(LoadTests.terminationMessage());
    var r = summary.results();
    assertThat(r.getRequests()).isEqualTo(259);
    assertThat(r.getAchievedRate()).isEqualTo(64.75);
    assertThat(r.getErrors()).isZero();
    assertThat(r.getNon2xx()).isZero();
    assertThat(r.getNotFound()).isEqualTo(123);
    var l = r.getLatencyMs();
    assertThat(l.getP50()).isEqualTo(3190.783);
    assertThat(l.getP90()).isEqualTo(3956.735);
    assertThat(l.getP99()).isEqualTo(4218.879);
    assertThat(l.getP999()).isEqualTo(4259.839);
    assertThat(l.getMax()).isEqualTo(4259.839);
    assertThat(summary.targetRate()).isEqualTo(300.0);
    assertThat(summary.json()).isEqualTo(LoadTests.terminationMessage());
    assertThat(summary.describe())
        .isEqualTo("259 requests at 64.75 req/s (target 300), p99 4218.88 ms, 0 errors, 0 non-2xx");
  }

  @Test
  void theCompactFormWithoutStatusCountsAndNullPercentilesIsRead() {
    var summary =
        RunSummary.parse(
            "{\"tool\":\"dht-loadgen\",\"requests\":0,\"achievedRate\":0.00,\"errors\":3,"
                + "\"non2xx\":0,\"latencyMs\":{\"p50\":null,\"p99\":null,\"max\":null}}");
    assertThat(summary.results().getRequests()).isZero();
    assertThat(summary.results().getErrors()).isEqualTo(3);
    assertThat(summary.results().getNotFound()).isZero();
    assertThat(summary.results().getLatencyMs().getP99()).isNull();
    assertThat(summary.targetRate()).isNull();
  }

  @Test
  void aRunWhoseLatencyWasStillFallingIsMarkedNotWarmedUp() {
    var summary =
        RunSummary.parse(
            "{\"requests\":30000,\"achievedRate\":1000.0,\"errors\":0,\"non2xx\":0,"
                + "\"latencyMs\":{\"p99\":75.4},\"p99ByThirdMs\":[212.5,4.1,2.0],"
                + "\"warmedUp\":false}");
    assertThat(summary.results().getWarmedUp()).isFalse();
    assertThat(summary.results().getP99ByThirdMs()).containsExactly(212.5, 4.1, 2.0);
    assertThat(summary.describe())
        .endsWith(
            "0 non-2xx; not warmed up: p99 fell from 212.5 ms (first third) to 2 ms (last third)");
    var warm =
        RunSummary.parse(
            "{\"requests\":1,\"latencyMs\":{\"p99\":2.0},\"p99ByThirdMs\":[2.1,2.0,2.2],"
                + "\"warmedUp\":true}");
    assertThat(warm.results().getWarmedUp()).isTrue();
    assertThat(warm.describe()).doesNotContain("warm");
  }

  @Test
  void whatIsNotASummaryIsRefusedWithAReason() {
    assertThatThrownBy(() -> RunSummary.parse(null)).hasMessageContaining("empty");
    assertThatThrownBy(() -> RunSummary.parse("  ")).hasMessageContaining("empty");
    assertThatThrownBy(() -> RunSummary.parse("Exception in thread main"))
        .hasMessageContaining("not JSON");
    assertThatThrownBy(() -> RunSummary.parse("{\"tool\":\"x\"}"))
        .hasMessageContaining("no 'requests'");
  }
}
