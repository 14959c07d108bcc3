package dev.dht.operator.loadtest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.operator.loadtest.DhtLoadTestStatus.Results;
import org.junit.jupiter.api.Test;

class ComparisonTest {
  @Test
  void everyRowHasBothValuesTheChangeAndAWordForIt() {
    var c =
        Comparison.of(
            "put-10k-v1", LoadTests.BASELINE, LoadTests.results(9_990, 1.0, 12.0, 10.0, 160.0));
    assertThat(c.getBaseline()).isEqualTo("put-10k-v1");
    assertThat(c.getRows())
        .extracting(Comparison.Row::getMetric)
        .containsExactly("achievedRate", "p50", "p99", "p99.9", "max");
    assertThat(c.row("achievedRate").getSummary()).isEqualTo("same");
    assertThat(c.row("achievedRate").getChangePercent()).isEqualTo(-0.1);
    assertThat(c.row("p50").getSummary()).isEqualTo("same");
    assertThat(c.row("p99").getChangePercent()).isEqualTo(20.0);
    assertThat(c.row("p99").getSummary()).isEqualTo("20% worse");
    assertThat(c.row("p99.9").getSummary()).isEqualTo("2.78x better");
    assertThat(c.row("max").getSummary()).isEqualTo("2x worse");
  }

  @Test
  void aHigherRateIsBetterALowerOneWorse() {
    var faster = Comparison.of("b", LoadTests.BASELINE, LoadTests.results(20_000, 1, 10, 27.8, 80));
    assertThat(faster.row("achievedRate").getSummary()).isEqualTo("2x better");
    var slower = Comparison.of("b", LoadTests.BASELINE, LoadTests.results(9_000, 1, 10, 27.8, 80));
    assertThat(slower.row("achievedRate").getSummary()).isEqualTo("10% worse");
  }

  @Test
  void aMissingValueIsNotCompared() {
    var none = new Results();
    var c = Comparison.of("b", LoadTests.BASELINE, none);
    assertThat(c.row("p99").getChangePercent()).isNull();
    assertThat(c.row("p99").getBaseline()).isEqualTo(10.0);
  }
}
