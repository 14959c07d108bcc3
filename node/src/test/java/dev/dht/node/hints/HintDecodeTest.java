package dev.dht.node.hints;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dht.node.fuzz.ByteMutations;
import dev.dht.node.storage.Record;
import java.nio.charset.StandardCharsets;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;
import org.junit.jupiter.api.Test;

/**
 * Hints come back from disk: a damaged one is refused with an {@link IllegalArgumentException} that
 * says why, never a buffer's exception or an allocation of a garbage length.
 */
class HintDecodeTest {
  @Property
  void randomOrDamagedHintsDecodeConsistentlyOrAreRefused(
      @ForAll("keys") byte[] key, @ForAll("values") byte[] value) {
    Hint hint;
    try {
      hint = Hint.decode(key, value);
    } catch (RuntimeException e) {
      assertThat(e).isExactlyInstanceOf(IllegalArgumentException.class);
      Statistics.label("outcome").collect("refused");
      return;
    }
    Statistics.label("outcome").collect("decoded");
    assertThat(hint.encodedValue()).isEqualTo(value);
    Hint again = Hint.decode(hint.encodedKey(), hint.encodedValue());
    assertThat(again.target()).isEqualTo(hint.target());
    assertThat(again.createdMillis()).isEqualTo(hint.createdMillis());
    assertThat(again.sequence()).isEqualTo(hint.sequence());
    assertThat(again.key()).isEqualTo(hint.key());
    assertThat(again.record().encoded()).isEqualTo(hint.record().encoded());
    assertThat(Hint.targetOf(key)).isEqualTo(hint.target());
  }

  @Test
  void aDamagedHintIsRefusedWithItsReason() {
    Hint hint = new Hint("http://b:8080", 1, 2, utf8("k"), Record.tombstone(3));
    byte[] value = hint.encodedValue();
    value[0] = (byte) 0xff; // a negative key length
    assertThatThrownBy(() -> Hint.decode(hint.encodedKey(), value))
        .isExactlyInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("a hint value with a key of -");
    assertThatThrownBy(() -> Hint.decode(new byte[] {0x7f, 0}, hint.encodedValue()))
        .isExactlyInstanceOf(IllegalArgumentException.class)
        .hasMessage("a hint key of 2 bytes for a target of 32512");
    assertThatThrownBy(() -> Hint.targetOf(new byte[1]))
        .isExactlyInstanceOf(IllegalArgumentException.class)
        .hasMessage("a hint key of 1 bytes");
  }

  @Provide
  Arbitrary<byte[]> keys() {
    Arbitrary<byte[]> valid =
        Combinators.combine(
                Arbitraries.strings().ofMaxLength(20), Arbitraries.longs(), Arbitraries.longs())
            .as((target, created, sequence) ->
                new Hint(target, created, sequence, new byte[1], Record.tombstone(0)).encodedKey());
    return Arbitraries.oneOf(valid, ByteMutations.of(valid), ByteMutations.random());
  }

  @Provide
  Arbitrary<byte[]> values() {
    Arbitrary<byte[]> valid =
        Combinators.combine(
                Arbitraries.bytes().array(byte[].class).ofMaxSize(20),
                Arbitraries.bytes().array(byte[].class).ofMaxSize(20))
            .as((key, value) -> new Hint("t", 0, 0, key, Record.value(1, value)).encodedValue());
    return Arbitraries.oneOf(valid, ByteMutations.of(valid), ByteMutations.random());
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
