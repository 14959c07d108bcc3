package dev.dht.node.repair;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dht.node.storage.Record;
import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class DigestsTest {
  private static byte[] key(int i) {
    return ("key-" + i).getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] record(long timestamp, String value) {
    return Record.value(timestamp, value.getBytes(StandardCharsets.UTF_8)).encoded();
  }

  @Property(tries = 50)
  void theOrderOfAScanDoesNotMatter(@ForAll @IntRange(min = 1, max = 300) int keys) {
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < keys; i++) {
      order.add(i);
    }
    Digests forward = new Digests();
    order.forEach(i -> forward.add(key(i), record(i, "v")));
    Collections.shuffle(order);
    Digests shuffled = new Digests();
    order.forEach(i -> shuffled.add(key(i), record(i, "v")));
    assertThat(forward.differing(shuffled).isEmpty()).isTrue();
  }

  @Test
  void aMissingKeyAnOlderVersionOrAnotherValueMarksExactlyItsBucket() {
    Digests full = new Digests();
    for (int i = 0; i < 1000; i++) {
      full.add(key(i), record(10, "v"));
    }
    for (int changed : new int[] {7, 500, 999}) {
      for (int variant = 0; variant < 3; variant++) {
        Digests other = new Digests();
        for (int i = 0; i < 1000; i++) {
          if (i != changed) {
            other.add(key(i), record(10, "v"));
          } else if (variant == 1) {
            other.add(key(i), record(9, "v"));
          } else if (variant == 2) {
            other.add(key(i), record(10, "w"));
          }
        }
        var differing = full.differing(other);
        assertThat(differing.cardinality()).isEqualTo(1);
        assertThat(differing.get(Digests.bucket(key(changed)))).isTrue();
      }
    }
  }

  @Test
  void bucketsSpreadKeysEvenly() {
    int[] counts = new int[Digests.BUCKETS];
    int keys = Digests.BUCKETS * 20;
    for (int i = 0; i < keys; i++) {
      counts[Digests.bucket(key(i))]++;
    }
    int max = 0;
    for (int c : counts) {
      max = Math.max(max, c);
    }
    assertThat(max).as("the fullest bucket (mean 20)").isLessThan(50);
  }

  @Test
  void encodesAndDecodes() {
    Digests digests = new Digests();
    digests.add(key(1), record(1, "a"));
    Buffer encoded = digests.encode();
    assertThat(encoded.length()).isEqualTo(Digests.BUCKETS * 8);
    assertThat(Digests.decode(encoded).differing(digests).isEmpty()).isTrue();
    assertThatThrownBy(() -> Digests.decode(Buffer.buffer(new byte[12])))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
