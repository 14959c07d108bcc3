package dev.dht.loadgen.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class GeneratorShareTest {
  @Property
  void theSharesAddUpToTheTest(
      @ForAll @IntRange(min = 1, max = 64) int count,
      @ForAll @IntRange(min = 0, max = 10_000) int extra,
      @ForAll @IntRange(min = 1, max = 100_000) int rate) {
    int connections = count + extra;
    int sumConnections = 0;
    double sumRate = 0;
    for (int i = 0; i < count; i++) {
      var share = new GeneratorShare(i, count);
      int mine = share.connections(connections);
      assertThat(mine).isBetween(connections / count, connections / count + 1);
      assertThat(share.threads(8, connections)).isBetween(1, Math.min(8, mine));
      sumConnections += mine;
      sumRate += share.rate(rate);
    }
    assertThat(sumConnections).isEqualTo(connections);
    assertThat(sumRate).isCloseTo(rate, within(1e-6));
  }

  @Test
  void aSingleGeneratorIsTheWholeTest() {
    var alone = GeneratorShare.ALONE;
    assertThat(alone.rate(1234.5)).isEqualTo(1234.5);
    assertThat(alone.connections(64)).isEqualTo(64);
    assertThat(alone.threads(2, 64)).isEqualTo(2);
    assertThat(alone.seed(42)).isEqualTo(42);
    assertThat(new GeneratorShare(1, 2).seed(42)).isNotEqualTo(42);
  }

  @Test
  void anIndexOutsideTheGeneratorsIsRefused() {
    assertThatThrownBy(() -> new GeneratorShare(2, 2)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new GeneratorShare(0, 0)).isInstanceOf(IllegalArgumentException.class);
  }
}
