package dev.dht.node.hints;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.node.storage.Record;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class HintTest {
  @Test
  void encodesAndDecodesAndSortsByTargetThenAge() {
    Hint hint =
        new Hint(
            "http://b:8080",
            1_000,
            7,
            "key".getBytes(StandardCharsets.UTF_8),
            Record.tombstone(42));
    Hint decoded = Hint.decode(hint.encodedKey(), hint.encodedValue());
    assertThat(decoded.target()).isEqualTo("http://b:8080");
    assertThat(decoded.createdMillis()).isEqualTo(1_000);
    assertThat(decoded.key()).isEqualTo(hint.key());
    assertThat(decoded.record().tombstone()).isTrue();
    assertThat(decoded.record().timestamp()).isEqualTo(42);
    assertThat(Hint.targetOf(hint.encodedKey())).isEqualTo("http://b:8080");
    assertThat(hint.bytes()).isEqualTo(hint.encodedKey().length + hint.encodedValue().length);

    Hint later = new Hint("http://b:8080", 2_000, 1, hint.key(), hint.record());
    assertThat(Arrays.compareUnsigned(hint.encodedKey(), later.encodedKey())).isNegative();
    byte[] prefix = Hint.prefix("http://b:8080");
    assertThat(Arrays.equals(prefix, 0, prefix.length, later.encodedKey(), 0, prefix.length))
        .isTrue();
  }
}
