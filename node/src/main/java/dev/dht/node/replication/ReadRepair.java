package dev.dht.node.replication;

import dev.dht.node.storage.Record;
import java.util.Arrays;

/**
 * Which replicas a read must repair: those that answered with an older version than the newest one
 * seen, or with nothing. Pure: no I/O.
 */
public final class ReadRepair {
  private ReadRepair() {}

  /**
   * The positions of the replicas to repair: {@code answered[i]} says replica {@code i} answered
   * successfully with {@code records[i]} (null: it has no version). Nothing to repair when no
   * replica had a version ({@code newest} null).
   */
  public static int[] stale(Record newest, Record[] records, boolean[] answered) {
    if (newest == null) {
      return new int[0];
    }
    int[] stale = new int[records.length];
    int count = 0;
    for (int i = 0; i < records.length; i++) {
      if (answered[i] && newest.newerThan(records[i])) {
        stale[count++] = i;
      }
    }
    return Arrays.copyOf(stale, count);
  }
}
