package dev.dht.loadgen.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

class KeysTest {

  @Property(tries = 200)
  void zipfianKeysStayInTheKeyspace(
      @ForAll @LongRange(min = 1, max = 2_000_000) long n,
      @ForAll @DoubleRange(min = 0.01, max = 0.99) double theta,
      @ForAll long seed) {
    Zipfian z = new Zipfian(n, theta);
    SplittableRandom r = new SplittableRandom(seed);
    for (int i = 0; i < 1000; i++) {
      assertThat(z.next(r)).isBetween(0L, n - 1);
    }
  }

  @Property(tries = 100)
  void uniformKeysStayInTheKeyspace(
      @ForAll @LongRange(min = 1, max = Long.MAX_VALUE) long n, @ForAll long seed) {
    KeyChooser u = KeyChooser.uniform(n);
    SplittableRandom r = new SplittableRandom(seed);
    for (int i = 0; i < 100; i++) {
      assertThat(u.next(r)).isBetween(0L, n - 1);
    }
  }

  @Test
  void zipfianHeadFrequenciesMatchTheDistribution() {
    Zipfian z = new Zipfian(1000, 0.99);
    SplittableRandom r = new SplittableRandom(7);
    int samples = 400_000;
    long[] hits = new long[1000];
    for (int i = 0; i < samples; i++) {
      hits[(int) z.next(r)]++;
    }
    // Gray's method is exact for the two hottest keys.
    assertThat(hits[0] / (double) samples).isCloseTo(z.probability(0), within(0.004));
    assertThat(hits[1] / (double) samples).isCloseTo(z.probability(1), within(0.003));
    // And skewed: the hottest 1% of keys take ~40% of the requests, the coldest half very few.
    long top10 = 0;
    long bottomHalf = 0;
    for (int i = 0; i < 1000; i++) {
      if (i < 10) {
        top10 += hits[i];
      } else if (i >= 500) {
        bottomHalf += hits[i];
      }
    }
    double expectedTop10 = 0;
    for (int i = 0; i < 10; i++) {
      expectedTop10 += z.probability(i);
    }
    assertThat(top10 / (double) samples).isCloseTo(expectedTop10, within(0.03));
    assertThat(bottomHalf / (double) samples).isLessThan(0.15);
  }

  @Test
  void zetaTailApproximationIsAccurate() {
    for (double theta : new double[] {0.5, 0.8, 0.99}) {
      double exact = Zipfian.zeta(2_000_000, theta, Long.MAX_VALUE);
      double approx = Zipfian.zeta(2_000_000, theta, 1_000);
      assertThat(approx / exact).isCloseTo(1.0, within(1e-7));
    }
  }

  @Test
  void plannerFollowsTheWorkload() {
    KeyUris uris = new KeyUris("k", 100, 2, 3);
    SplittableRandom r = new SplittableRandom(1);
    RequestPlanner fill = new RequestPlanner(Workload.FILL, KeyChooser.uniform(100), 0, r, uris);
    assertThat(fill.plan(5)).isEqualTo(new PlannedRequest(true, "/v0/entity?id=k5&ack=2&from=3"));
    assertThat(fill.plan(99).uri()).isEqualTo("/v0/entity?id=k99&ack=2&from=3");

    RequestPlanner get = new RequestPlanner(Workload.GET, KeyChooser.uniform(100), 0, r, uris);
    assertThat(get.plan(0).put()).isFalse();

    RequestPlanner mixed =
        new RequestPlanner(Workload.MIXED, KeyChooser.uniform(100), 0.3, r, uris);
    int gets = 0;
    for (int i = 0; i < 10_000; i++) {
      gets += mixed.plan(i).put() ? 0 : 1;
    }
    assertThat(gets).isBetween(2_800, 3_200);
    assertThat(new KeyUris("a b", 10, null, null).uri(3)).isEqualTo("/v0/entity?id=a%20b3");
  }
}
