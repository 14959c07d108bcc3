package dev.dht.node.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Six node processes in three zones (the members file's {@code zone=}), at from=3: every key's
 * three copies are in three zones, counted through each node's own range reads; grown to nine (one
 * more per zone) the way the operator drives a change, every key still has exactly three copies, in
 * three zones. And six nodes without zones given them ({@code next-zone=}, the three epochs of a
 * change) under a writer and a reader at 2/3: nothing lost, no stale read, the copies end in three
 * zones.
 */
class ZonePlacementProcessTest {
  private static final int KEYS = 600;
  private static final String[] ZONES = {"zone-a", "zone-b", "zone-c"};

  @TempDir Path root;

  private Membership cluster;

  @Test
  void everyKeysReplicasAreInThreeZonesBeforeAndAfterGrowingSixToNine() throws Exception {
    cluster = new Membership(root, 9);
    for (int i = 0; i < 9; i++) {
      cluster.zone(i, ZONES[i % 3]);
    }
    String n = "normal";
    cluster.publish(1, false, n, n, n, n, n, n, null, null, null);
    String[] flags =
        cluster.flags("--default-from", "3", "--repair-interval-s", "0", "--hint-window-s", "0");
    try {
      for (int i = 0; i < 6; i++) {
        cluster.start(i, flags);
      }
      for (int k = 0; k < KEYS; k++) {
        assertThat(cluster.node(k % 6).client().put("z-" + k, "v" + k, 3, 3).status())
            .isEqualTo(201);
      }
      assertEveryKeyIsInThreeZones(0, 1, 2, 3, 4, 5);

      for (int i = 6; i < 9; i++) {
        cluster.start(i, flags); // not listed yet: they wait
      }
      String j = "joining";
      cluster.publish(2, false, n, n, n, n, n, n, j, j, j);
      cluster.awaitEpoch(2, 0, 1, 2, 3, 4, 5, 6, 7, 8);
      cluster.stream(2, 0, 1, 2, 3, 4, 5, 6, 7, 8);
      cluster.publish(3, true, n, n, n, n, n, n, j, j, j);
      cluster.awaitEpoch(3, 0, 1, 2, 3, 4, 5, 6, 7, 8);
      cluster.publish(4, false, n, n, n, n, n, n, n, n, n);
      cluster.awaitEpoch(4, 0, 1, 2, 3, 4, 5, 6, 7, 8);
      cluster.cleanup(4, 0, 1, 2, 3, 4, 5, 6, 7, 8);
      assertEveryKeyIsInThreeZones(0, 1, 2, 3, 4, 5, 6, 7, 8);
      for (int k = 0; k < KEYS; k += 7) {
        var reply = cluster.node(k % 9).client().get("z-" + k, 3, 3);
        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.text()).isEqualTo("v" + k);
      }
    } finally {
      cluster.close();
    }
  }

  @Test
  void zonesGivenToARunningClusterMoveItsCopiesUnderLoadLosingNothing() throws Exception {
    cluster = new Membership(root, 6);
    String n = "normal";
    cluster.publish(1, false, n, n, n, n, n, n);
    String[] flags =
        cluster.flags(
            "--default-from", "3", "--repair-interval-s", "0", "--request-timeout-ms", "3000");
    try {
      for (int i = 0; i < 6; i++) {
        cluster.start(i, flags);
      }
      Map<String, Long> acked = new ConcurrentHashMap<>();
      for (int k = 0; k < KEYS; k++) {
        assertThat(cluster.node(k % 6).client().put("z-" + k, "0", 3, 3).status()).isEqualTo(201);
        acked.put("z-" + k, 0L);
      }
      OverwriteLoad load = new OverwriteLoad(cluster, acked, 6, 2, 3);
      load.start();
      for (int i = 0; i < 6; i++) {
        cluster.nextZone(i, ZONES[i % 3]);
      }
      cluster.publish(2, false, n, n, n, n, n, n);
      cluster.awaitEpoch(2, 0, 1, 2, 3, 4, 5);
      cluster.stream(2, 0, 1, 2, 3, 4, 5);
      cluster.publish(3, true, n, n, n, n, n, n);
      cluster.awaitEpoch(3, 0, 1, 2, 3, 4, 5);
      for (int i = 0; i < 6; i++) {
        cluster.zone(i, ZONES[i % 3]);
        cluster.nextZone(i, null);
      }
      cluster.publish(4, false, n, n, n, n, n, n);
      cluster.awaitEpoch(4, 0, 1, 2, 3, 4, 5);
      cluster.cleanup(4, 0, 1, 2, 3, 4, 5);
      Thread.sleep(500);
      load.stop();
      System.out.println(load);
      assertThat(load.writes.get()).as("acknowledged writes").isPositive();
      assertThat(load.notFound.get()).as("reads of acknowledged keys that found nothing").isZero();
      assertThat(load.older.get()).as("reads older than an acknowledged write").isZero();
      for (var e : acked.entrySet()) {
        var reply = cluster.node(0).client().get(e.getKey(), 3, 3);
        assertThat(reply.status()).as(e.getKey()).isEqualTo(200);
        assertThat(Long.parseLong(reply.text()))
            .as(e.getKey())
            .isGreaterThanOrEqualTo(e.getValue());
      }
      assertEveryKeyIsInThreeZones(0, 1, 2, 3, 4, 5);
    } finally {
      cluster.close();
    }
  }

  /** Each key is held by exactly three of the nodes, one in each zone. */
  private void assertEveryKeyIsInThreeZones(int... nodes) {
    Map<String, Set<Integer>> holders = new HashMap<>();
    for (int i : nodes) {
      for (String key : cluster.node(i).entries().keySet()) {
        holders.computeIfAbsent(key, x -> new HashSet<>()).add(i);
      }
    }
    assertThat(holders).hasSize(KEYS);
    holders.forEach((key, held) -> {
      assertThat(held).as("the nodes holding %s", key).hasSize(3);
      assertThat(held.stream().map(i -> ZONES[i % 3]).distinct().toList())
          .as("the zones of %s's copies (nodes %s)", key, held)
          .hasSameElementsAs(List.of(ZONES));
    });
  }
}
