package dev.dht.node.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.stream.IntStream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class RingTest {
  private static List<String> nodes(int n) {
    return IntStream.range(0, n).mapToObj(i -> "http://node-" + i + ".peers:8080").toList();
  }

  @Property
  void placementIsDeterministicAndIndependentOfListOrder(
      @ForAll @Size(max = 64) byte[] key, @ForAll @IntRange(min = 1, max = 10) int n) {
    List<String> members = nodes(n);
    List<String> shuffled = new ArrayList<>(members);
    Collections.shuffle(shuffled);
    int[] first = new Ring(members).replicas(key, n);
    int[] again = new Ring(members).replicas(key, n);
    int[] fromShuffled = new Ring(shuffled).replicas(key, n);
    assertThat(again).containsExactly(first);
    assertThat(Arrays.stream(fromShuffled).mapToObj(shuffled::get))
        .containsExactlyElementsOf(Arrays.stream(first).mapToObj(members::get).toList());
  }

  @Property
  void smallerFromIsAPrefixOfLargerFrom(
      @ForAll @Size(max = 64) byte[] key, @ForAll @IntRange(min = 1, max = 10) int n) {
    Ring ring = new Ring(nodes(n));
    int[] all = ring.replicas(key, n);
    assertThat(all).doesNotHaveDuplicates();
    for (int from = 1; from <= n; from++) {
      assertThat(ring.replicas(key, from)).containsExactly(Arrays.copyOf(all, from));
    }
  }

  @Property(tries = 8)
  void keysSpreadEvenlyOverThreeToTenNodes(@ForAll @IntRange(min = 3, max = 10) int n) {
    Ring ring = new Ring(nodes(n));
    int keys = 60_000;
    int[] primaries = new int[n];
    int[] copies = new int[n];
    for (int k = 0; k < keys; k++) {
      byte[] key = ("key" + k).getBytes(StandardCharsets.UTF_8);
      int[] replicas = ring.replicas(key, Math.min(3, n));
      primaries[replicas[0]]++;
      for (int r : replicas) {
        copies[r]++;
      }
    }
    double expectedPrimaries = (double) keys / n;
    double expectedCopies = (double) keys * Math.min(3, n) / n;
    for (int i = 0; i < n; i++) {
      assertThat(primaries[i])
          .isBetween((int) (expectedPrimaries * 0.9), (int) (expectedPrimaries * 1.1));
      assertThat(copies[i]).isBetween((int) (expectedCopies * 0.9), (int) (expectedCopies * 1.1));
    }
  }

  @Test
  void addingANodeMovesOnlyKeysItWins() {
    Ring before = new Ring(nodes(5));
    List<String> grown = new ArrayList<>(nodes(5));
    grown.add("http://node-5.peers:8080");
    Ring after = new Ring(grown);
    int moved = 0;
    for (int k = 0; k < 10_000; k++) {
      byte[] key = ("key" + k).getBytes(StandardCharsets.UTF_8);
      int oldPrimary = before.replicas(key, 1)[0];
      int newPrimary = after.replicas(key, 1)[0];
      if (oldPrimary != newPrimary) {
        assertThat(newPrimary).isEqualTo(5);
        moved++;
      }
    }
    assertThat(moved).isBetween(1_300, 2_000); // about 1/6 of the keys
  }

  @Test
  void rejectsFromOutsideTheCluster() {
    Ring ring = new Ring(nodes(3));
    assertThatThrownBy(() -> ring.replicas(new byte[] {1}, 0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ring.replicas(new byte[] {1}, 4))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
