package dev.dht.node.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

class VersionBoundsTest {
  /** Whatever was raised, above() never claims a timestamp at or below a key's newest version. */
  @Property
  void aboveImpliesNewerThanEveryVersionOfTheKey(
      @ForAll @Size(max = 200) List<@IntRange(max = 40) Integer> keys,
      @ForAll @Size(max = 200) List<Long> timestamps,
      @ForAll @IntRange(max = 40) int probeKey,
      @ForAll long probe) {
    VersionBounds bounds = new VersionBounds(8, 0); // few slots: many keys share one
    Map<Integer, Long> newest = new HashMap<>();
    for (int i = 0; i < Math.min(keys.size(), timestamps.size()); i++) {
      bounds.raise(key(keys.get(i)), timestamps.get(i));
      newest.merge(
          keys.get(i), timestamps.get(i), (a, b) -> Long.compareUnsigned(a, b) > 0 ? a : b);
    }
    if (bounds.above(key(probeKey), probe)) {
      assertThat(Long.compareUnsigned(probe, newest.getOrDefault(probeKey, 0L))).isPositive();
    }
  }

  @Property
  void aKeyWrittenInOrderNeedsNoRead(@ForAll @Size(min = 1, max = 50) List<Long> increments) {
    VersionBounds bounds = new VersionBounds(1 << 10, 100);
    long t = 100;
    for (long inc : increments) {
      t += Math.floorMod(inc, 1000) + 1;
      assertThat(bounds.above(key(7), t)).isTrue();
      bounds.raise(key(7), t);
    }
    assertThat(bounds.above(key(7), t)).isFalse();
  }

  private static byte[] key(int i) {
    return ("key-" + i).getBytes();
  }

  /** After raiseAll, no key is claimed newer below that timestamp (an ingested file's newest). */
  @Property
  void raisingAllBoundsEveryKey(
      @ForAll @Size(max = 50) List<Long> timestamps,
      @ForAll long all,
      @ForAll @IntRange(max = 40) int probeKey,
      @ForAll long probe) {
    VersionBounds bounds = new VersionBounds(8, 0);
    timestamps.forEach(t -> bounds.raise(key(probeKey), t));
    bounds.raiseAll(all);
    if (bounds.above(key(probeKey), probe)) {
      assertThat(Long.compareUnsigned(probe, all)).isPositive();
      timestamps.forEach(t -> assertThat(Long.compareUnsigned(probe, t)).isPositive());
    }
  }
}
