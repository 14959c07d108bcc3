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

  /** Nodes 0..n-1 in zones a, b, c, a, b, c, ... (a StatefulSet spread over three zones). */
  private static List<String> zones(int n) {
    return IntStream.range(0, n).mapToObj(i -> "zone-" + "abc".charAt(i % 3)).toList();
  }

  private static byte[] key(int k) {
    return ("user:" + k).getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void sixNodesInThreeZonesPutEveryKeysThreeReplicasInThreeZones() {
    var zones = zones(6);
    var ring = new Ring(nodes(6), zones);
    int[] copies = new int[6];
    for (int k = 0; k < 100_000; k++) {
      int[] replicas = ring.replicas(key(k), 3);
      assertThat(Arrays.stream(replicas).mapToObj(zones::get).distinct().count())
          .as("zones of key %d's replicas", k)
          .isEqualTo(3);
      for (int r : replicas) {
        copies[r]++;
      }
    }
    for (int c : copies) { // 50,000 each: two nodes per zone share its 100,000 copies
      assertThat(c).isBetween(47_500, 52_500);
    }
  }

  @Property
  void anyPrefixSpansAsManyZonesAsItCanAndZonesTakeTurns(
      @ForAll @Size(max = 64) byte[] key,
      @ForAll @IntRange(min = 1, max = 12) int n,
      @ForAll @IntRange(min = 1, max = 4) int zoneCount) {
    var zones = IntStream.range(0, n).mapToObj(i -> "z" + (i * 7 % zoneCount)).toList();
    var ring = new Ring(nodes(n), zones);
    int[] all = ring.replicas(key, n);
    assertThat(all).doesNotHaveDuplicates();
    long present = zones.stream().distinct().count();
    for (int from = 1; from <= n; from++) {
      int[] some = ring.replicas(key, from);
      assertThat(some).containsExactly(Arrays.copyOf(all, from));
      var counts = new java.util.HashMap<String, Integer>();
      Arrays.stream(some).forEach(i -> counts.merge(zones.get(i), 1, Integer::sum));
      assertThat(counts.size()).isEqualTo((int) Math.min(from, present));
      // no zone takes a second copy while another zone with nodes left has fewer
      for (var zone : zones.stream().distinct().toList()) {
        int nodesThere = (int) zones.stream().filter(zone::equals).count();
        int held = counts.getOrDefault(zone, 0);
        if (held < nodesThere) {
          assertThat(counts.values()).allSatisfy(c -> assertThat(c).isLessThanOrEqualTo(held + 1));
        }
      }
    }
  }

  @Test
  void withoutZonesOrInOneZoneItIsPlainRendezvous() {
    var plain = new Ring(nodes(7));
    var oneZone = new Ring(nodes(7), Collections.nCopies(7, "zone-a"));
    assertThat(plain.zones()).isEqualTo(1);
    for (int k = 0; k < 2_000; k++) {
      assertThat(oneZone.replicas(key(k), 7)).containsExactly(plain.replicas(key(k), 7));
    }
  }

  @Test
  void growingSixToNineNodesInThreeZonesMovesWithinTenPercentOfTheMinimum() {
    var before = new Ring(nodes(6), zones(6));
    var after = new Ring(nodes(9), zones(9));
    int keys = 100_000;
    long moved = 0;
    for (int k = 0; k < keys; k++) {
      var was = Arrays.stream(before.replicas(key(k), 3)).boxed().toList();
      for (int r : after.replicas(key(k), 3)) {
        if (!was.contains(r)) { // node indexes 0..5 are the same nodes in both rings
          moved++;
        }
      }
    }
    // at least the new nodes' share must move: 3 of 9 nodes hold a third of the copies
    long minimum = keys * 3L / 3;
    assertThat(moved).isBetween(minimum * 9 / 10, minimum * 11 / 10);
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
