package dev.dht.node.repair;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.buffer.Buffer;
import java.util.BitSet;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The fixed-size parts of the repair protocol that come from peers: a bucket bitmap (a request
 * body) and digests (an answer) are taken at exactly their size, or refused.
 */
class RepairApiTest {
  private static final int BITMAP_BYTES = Digests.BUCKETS / 8;

  @Property(tries = 200)
  void aBitmapOfAnotherSizeIsRefusedAndOneOfItsSizeRoundTrips(
      @ForAll("bitmapSizes") int size, @ForAll long seed) {
    byte[] bitmap = randomBytes(size, seed);
    if (size != BITMAP_BYTES) {
      assertThatThrownBy(() -> RepairApi.buckets(bitmap))
          .isExactlyInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("not " + size);
      return;
    }
    BitSet buckets = RepairApi.buckets(bitmap);
    assertThat(buckets.length()).isLessThanOrEqualTo(Digests.BUCKETS);
    assertThat(RepairApi.bitmap(buckets)).isEqualTo(bitmap);
  }

  @Property(tries = 100)
  void digestsOfAnotherSizeAreRefusedAndOnesOfTheirSizeRoundTrip(
      @ForAll("digestSizes") int size, @ForAll long seed) {
    Buffer bytes = Buffer.buffer(randomBytes(size, seed));
    if (size != Digests.ENCODED_BYTES) {
      assertThatThrownBy(() -> Digests.decode(bytes))
          .isExactlyInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("digests of " + size + " bytes");
      return;
    }
    assertThat(Digests.decode(bytes).encode()).isEqualTo(bytes);
  }

  @Provide
  Arbitrary<Integer> bitmapSizes() {
    return Arbitraries.oneOf(
        Arbitraries.just(BITMAP_BYTES), Arbitraries.integers().between(0, 2 * BITMAP_BYTES));
  }

  @Provide
  Arbitrary<Integer> digestSizes() {
    int size = Digests.ENCODED_BYTES;
    return Arbitraries.oneOf(
        Arbitraries.of(size, size - 1, size + 1, size - 8, size + 8),
        Arbitraries.integers().between(0, 2 * size));
  }

  private static byte[] randomBytes(int size, long seed) {
    byte[] bytes = new byte[size];
    new Random(seed).nextBytes(bytes);
    return bytes;
  }
}
