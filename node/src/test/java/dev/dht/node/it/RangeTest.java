package dev.dht.node.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * API.md §4 on a one-node cluster holding a fixed data set: unsigned UTF-8 byte order, bounds,
 * empty values, tombstones skipped, empty ranges, and the chunk framing ({@code key \n value}, one
 * chunk per entry).
 */
class RangeTest {
  @TempDir static Path root;
  static LocalCluster cluster;

  /** The live entries, keyed and ordered by unsigned UTF-8 bytes as the node must order them. */
  static final TreeMap<byte[], String> live = new TreeMap<>(Arrays::compareUnsigned);

  @BeforeAll
  static void writeDataSet() {
    cluster = LocalCluster.start(root, 1);
    DhtClient client = cluster.client(0);
    Map<String, String> entries = new LinkedHashMap<>();
    // ASCII, upper before lower case, DEL, then 2-, 3- and 4-byte UTF-8: U+FF21 sorts before
    // U+1F600 by bytes (EF.. < F0..) although it sorts after it as UTF-16 chars
    for (String key :
        new String[] {
          "a", "b", "B", "b0", "z", "zz", "\u007f", "ä", "€", "Ａ", "😀", "k/1", "k/2"
        }) {
      entries.put(key, "value of " + key);
    }
    entries.put("empty", "");
    entries.put("multi-line", "first\nsecond\n");
    entries.put("dead", "soon deleted");
    entries.put("overwritten", "old");
    entries.forEach((key, value) -> assertThat(client.put(key, value).status()).isEqualTo(201));
    assertThat(client.put("overwritten", "new").status()).isEqualTo(201);
    assertThat(client.delete("dead").status()).isEqualTo(202);
    assertThat(client.delete("never-written-tombstone").status()).isEqualTo(202);
    entries.put("overwritten", "new");
    entries.remove("dead");
    entries.forEach((key, value) -> live.put(bytes(key), value));
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  private static byte[] bytes(String key) {
    return key.getBytes(StandardCharsets.UTF_8);
  }

  private static RawHttp.Response range(String start, String end) {
    String target =
        "/v0/entities?start="
            + DhtClient.encode(start)
            + (end == null ? "" : "&end=" + DhtClient.encode(end));
    return RawHttp.get(cluster.port(0), target);
  }

  /** The entries of a range response, one per chunk, split at the chunk's first newline. */
  private static List<Map.Entry<String, String>> entries(RawHttp.Response response) {
    assertThat(response.status()).isEqualTo(200);
    assertThat(response.header("Transfer-Encoding")).isEqualToIgnoringCase("chunked");
    List<Map.Entry<String, String>> entries = new ArrayList<>();
    for (byte[] chunk : response.chunks()) {
      int newline = 0;
      while (newline < chunk.length && chunk[newline] != '\n') {
        newline++;
      }
      assertThat(newline).as("every chunk has a key and a newline").isLessThan(chunk.length);
      entries.add(
          Map.entry(
              new String(chunk, 0, newline, StandardCharsets.UTF_8),
              new String(chunk, newline + 1, chunk.length - newline - 1, StandardCharsets.UTF_8)));
    }
    return entries;
  }

  private static List<Map.Entry<String, String>> expected(String start, String end) {
    var view =
        end == null
            ? live.tailMap(bytes(start), true)
            : live.subMap(bytes(start), true, bytes(end), false);
    List<Map.Entry<String, String>> expected = new ArrayList<>();
    view.forEach(
        (key, value) -> expected.add(Map.entry(new String(key, StandardCharsets.UTF_8), value)));
    return expected;
  }

  @Test
  void theWholeRangeIsInUnsignedByteOrderWithTombstonesSkipped() {
    List<Map.Entry<String, String>> entries = entries(range("\u0001", null));
    assertThat(entries).containsExactlyElementsOf(expected("\u0001", null));
    assertThat(entries)
        .extracting(Map.Entry::getKey)
        .doesNotContain("dead", "never-written-tombstone");
    // spot-check the order independently of the TreeMap
    List<String> keys = entries.stream().map(Map.Entry::getKey).toList();
    assertThat(keys.indexOf("B")).isLessThan(keys.indexOf("a"));
    assertThat(keys.indexOf("zz")).isLessThan(keys.indexOf("\u007f"));
    assertThat(keys.indexOf("\u007f")).isLessThan(keys.indexOf("ä"));
    assertThat(keys.indexOf("ä")).isLessThan(keys.indexOf("€"));
    assertThat(keys.indexOf("Ａ")).isLessThan(keys.indexOf("😀"));
  }

  @Test
  void startIsInclusiveAndEndExclusive() {
    List<Map.Entry<String, String>> entries = entries(range("b", "z"));
    assertThat(entries).containsExactlyElementsOf(expected("b", "z"));
    assertThat(entries)
        .extracting(Map.Entry::getKey)
        .contains("b", "b0", "k/1")
        .doesNotContain("z", "a", "B");
  }

  @Test
  void withoutEndTheRangeRunsToTheLastKey() {
    List<Map.Entry<String, String>> entries = entries(range("z", null));
    assertThat(entries)
        .extracting(Map.Entry::getKey)
        .containsExactly("z", "zz", "\u007f", "ä", "€", "Ａ", "😀");
  }

  @Test
  void bothBoundsMayFallBetweenKeys() {
    assertThat(entries(range("k/", "k/3")))
        .extracting(Map.Entry::getKey)
        .containsExactly("k/1", "k/2");
    assertThat(entries(range("ü", "😀"))).extracting(Map.Entry::getKey).containsExactly("€", "Ａ");
  }

  @Test
  void anEmptyValueIsAnEntryWithNothingAfterTheNewline() {
    RawHttp.Response response = range("empty", "empty0");
    assertThat(response.chunks()).hasSize(1);
    assertThat(response.chunks().getFirst()).isEqualTo(bytes("empty\n"));
  }

  @Test
  void aValueWithNewlinesIsSplitAtTheFirstOnly() {
    assertThat(entries(range("multi-line", "multi-linf")))
        .containsExactly(Map.entry("multi-line", "first\nsecond\n"));
  }

  @Test
  void theNewestLocalVersionIsServed() {
    assertThat(entries(range("overwritten", "overwrittf")))
        .containsExactly(Map.entry("overwritten", "new"));
  }

  @Test
  void aRangeOfOnlyTombstonesOrNoKeysIsAnEmpty200() {
    for (String[] bounds :
        new String[][] {{"c", "d"}, {"dead", "deae"}, {"never", "nevf"}, {"😀0", null}}) {
      RawHttp.Response response = range(bounds[0], bounds[1]);
      assertThat(response.status()).as("%s", Arrays.toString(bounds)).isEqualTo(200);
      assertThat(response.body()).as("%s", Arrays.toString(bounds)).isEmpty();
    }
  }

  @Test
  void theBodyIsExactlyTheConcatenatedEntries() {
    RawHttp.Response response = range("a", "c");
    StringBuilder expected = new StringBuilder();
    expected("a", "c").forEach(e -> expected.append(e.getKey()).append('\n').append(e.getValue()));
    assertThat(response.text()).isEqualTo(expected.toString());
    assertThat(response.chunks()).hasSize(expected("a", "c").size());
  }

  @Test
  void invalidBoundsAre400() {
    for (String target :
        new String[] {
          "/v0/entities", "/v0/entities?start=", "/v0/entities?start=a&end=", "/v0/entities?end=b"
        }) {
      RawHttp.Response response = RawHttp.get(cluster.port(0), target);
      assertThat(response.status()).as(target).isEqualTo(400);
      assertThat(response.text()).isNotBlank();
    }
  }
}
