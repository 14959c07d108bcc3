package dev.dht.node.replication;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.node.storage.Record;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.statistics.Statistics;
import org.junit.jupiter.api.Test;

/**
 * A read answers the newest version any replica reported, full or as a digest: never an older one,
 * and never a digest; it fetches the record when only a digest carries the newest version, and
 * repairs exactly the replicas behind it.
 */
class ReadResolutionTest {
  private static Record full(int version) {
    return version % 3 == 0
        ? Record.tombstone(version)
        : Record.value(version, ("v" + version).getBytes());
  }

  /**
   * Each replica answered -1 (failed or not asked), 0 (no version) or a version: a timestamp, with
   * one value each, as a write is stamped once; as a digest or in full.
   */
  @Property
  void theNewestVersionIsAnsweredOrFetchedAndOnlyTheReplicasBehindAreRepaired(
      @ForAll @Size(min = 1, max = 5) List<@IntRange(min = -1, max = 4) Integer> versions,
      @ForAll @Size(min = 5, max = 5) List<Boolean> digests) {
    int n = versions.size();
    Record[] records = new Record[n];
    boolean[] answered = new boolean[n];
    boolean[] digest = new boolean[n];
    int newest = 0;
    for (int i = 0; i < n; i++) {
      int v = versions.get(i);
      answered[i] = v >= 0;
      digest[i] = digests.get(i);
      records[i] = v > 0 ? (digest[i] ? full(v).digest() : full(v)) : null;
      newest = Math.max(newest, v);
    }
    ReadResolution.Step step = ReadResolution.resolve(records, answered, digest);
    boolean fullAtNewest = false;
    for (int i = 0; i < n; i++) {
      // a tombstone's digest is the whole record
      fullAtNewest |= newest > 0 && versions.get(i) == newest && (!digest[i] || newest % 3 == 0);
    }
    if (step instanceof ReadResolution.Fetch fetch) {
      Statistics.label("step").collect("fetch");
      assertThat(fullAtNewest).isFalse();
      assertThat(digest[fetch.replica()]).isTrue();
      assertThat(versions.get(fetch.replica())).isEqualTo(newest);
      return;
    }
    ReadResolution.Answer answer = (ReadResolution.Answer) step;
    Statistics.label("step").collect(answer.stale().length > 0 ? "answer, repair" : "answer");
    if (newest == 0) {
      assertThat(answer.newest()).isNull();
    } else {
      assertThat(fullAtNewest).isTrue();
      assertThat(answer.newest().encoded()).isEqualTo(full(newest).encoded());
    }
    List<Integer> behind = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      if (newest > 0 && versions.get(i) >= 0 && versions.get(i) < newest) {
        behind.add(i);
      }
    }
    assertThat(answer.stale())
        .containsExactly(behind.stream().mapToInt(Integer::intValue).toArray());
  }

  @Test
  void aDigestOfTheSameVersionIsNotBehind() {
    Record record = Record.value(7, "x".getBytes());
    assertThat(ReadResolution.behind(record, record.digest(), true)).isFalse();
    assertThat(ReadResolution.behind(record, Record.value(6, "y".getBytes()).digest(), true))
        .isTrue();
    assertThat(ReadResolution.behind(record, null, true)).isTrue();
    assertThat(ReadResolution.behind(record, record, false)).isFalse();
  }
}
