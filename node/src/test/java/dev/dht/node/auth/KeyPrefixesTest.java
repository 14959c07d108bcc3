package dev.dht.node.auth;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;
import org.junit.jupiter.api.Test;

/** Which keys and ranges an ACL's prefixes grant, compared as bytes. */
class KeyPrefixesTest {
  private static final KeyPrefixes APP = KeyPrefixes.of(List.of("app/"));

  @Test
  void aKeyIsCoveredIfItStartsWithAPrefix() {
    assertThat(APP.covers(bytes("app/x"))).isTrue();
    assertThat(APP.covers(bytes("app/"))).isTrue();
    assertThat(APP.covers(bytes("app"))).isFalse();
    assertThat(APP.covers(bytes("apq/x"))).isFalse();
    assertThat(APP.covers(bytes("b/app/x"))).isFalse();
    assertThat(KeyPrefixes.of(List.of("a/", "b/")).covers(bytes("b/1"))).isTrue();
    assertThat(KeyPrefixes.of(List.of()).covers(bytes("a"))).as("no prefix: no key").isFalse();
    assertThat(KeyPrefixes.of(List.of("")).covers(new byte[] {(byte) 0xff, 0}))
        .as("the empty prefix: every key")
        .isTrue();
  }

  @Test
  void utf8PrefixesAreComparedAsTheirBytes() {
    KeyPrefixes umlaut = KeyPrefixes.of(List.of("ü/"));
    assertThat(umlaut.covers(bytes("ü/straße"))).isTrue();
    assertThat(umlaut.covers(bytes("u/straße"))).isFalse();
    assertThat(umlaut.covers(new byte[] {(byte) 0xc3})).as("half of ü").isFalse();
    assertThat(umlaut.covers(new byte[] {(byte) 0xc3, (byte) 0xbc, '/', (byte) 0xff}))
        .as("any bytes after the prefix")
        .isTrue();
    assertThat(
            KeyPrefixes.of(List.of("é"))
                .coversRange(bytes("éa"), new byte[] {(byte) 0xc3, (byte) 0xaa}))
        .as("é is C3 A9: its keys end before C3 AA")
        .isTrue();
  }

  @Test
  void aRangeIsCoveredIfItStartsAndEndsWithinOnePrefix() {
    assertThat(APP.coversRange(bytes("app/a"), bytes("app/z"))).isTrue();
    assertThat(APP.coversRange(bytes("app/"), bytes("app0")))
        .as("the first key after every app/ key")
        .isTrue();
    assertThat(APP.coversRange(bytes("app/a"), bytes("app00"))).as("past it").isFalse();
    assertThat(APP.coversRange(bytes("app/a"), bytes("b"))).isFalse();
    assertThat(APP.coversRange(bytes("app/a"), null)).as("no end: every key after").isFalse();
    assertThat(APP.coversRange(bytes("apo"), bytes("app/z"))).as("starts before").isFalse();
    assertThat(KeyPrefixes.of(List.of("a/", "b/")).coversRange(bytes("a/x"), bytes("b/x")))
        .as("across two prefixes: the keys between are neither's")
        .isFalse();
    KeyPrefixes everything = KeyPrefixes.of(List.of("app/", ""));
    assertThat(everything.coversRange(bytes("\u0001"), null)).isTrue();
    assertThat(everything.coversRange(bytes("z"), bytes("a"))).isTrue();
  }

  @Test
  void theFirstKeyAfterAPrefixCarriesOverFfBytes() {
    assertThat(KeyPrefixes.firstKeyAfter(new byte[] {'a', (byte) 0xff}))
        .isEqualTo(new byte[] {'b'});
    assertThat(KeyPrefixes.firstKeyAfter(new byte[] {'a', (byte) 0x7f}))
        .isEqualTo(new byte[] {'a', (byte) 0x80});
    assertThat(KeyPrefixes.firstKeyAfter(new byte[] {(byte) 0xff, (byte) 0xff})).isNull();
    assertThat(KeyPrefixes.firstKeyAfter(new byte[0])).isNull();
  }

  @Test
  void refusalsNameThePrefixes() {
    assertThat(KeyPrefixes.of(List.of("app/", "shared/", "app/"))).hasToString("[app/, shared/]");
  }

  /** Prefixes, and keys of the bytes where signed and unsigned order and UTF-8 matter. */
  record Case(List<String> prefixes, byte[] start, byte[] end, byte[] key) {
    KeyPrefixes granted() {
      return KeyPrefixes.of(prefixes);
    }

    @Override
    public String toString() {
      var hex = java.util.HexFormat.ofDelimiter(" ");
      return "prefixes "
          + prefixes.stream().map(p -> hex.formatHex(p.getBytes(UTF_8))).toList()
          + ", start ["
          + hex.formatHex(start)
          + "], end ["
          + hex.formatHex(end)
          + "], key ["
          + hex.formatHex(key)
          + "]";
    }
  }

  /** The safety of the range rule: a covered range holds only keys of the prefixes. */
  @Property
  void everyKeyOfACoveredRangeIsCovered(@ForAll("cases") Case c) {
    boolean inRange =
        Arrays.compareUnsigned(c.start(), c.key()) <= 0
            && Arrays.compareUnsigned(c.key(), c.end()) < 0;
    Assume.that(inRange);
    boolean covered = c.granted().coversRange(c.start(), c.end());
    Statistics.label("range covered").collect(covered);
    if (covered) {
      assertThat(c.granted().covers(c.key())).isTrue();
    }
  }

  /** And its reach: a range between two keys of one prefix, or to its end, is covered. */
  @Property
  void aRangeBetweenKeysOfOnePrefixIsCovered(@ForAll("cases") Case c) {
    Assume.that(!c.prefixes().isEmpty());
    byte[] prefix = c.prefixes().getFirst().getBytes(UTF_8);
    byte[] start = concat(prefix, c.start());
    assertThat(c.granted().coversRange(start, concat(prefix, c.end()))).isTrue();
    byte[] after = KeyPrefixes.firstKeyAfter(prefix);
    if (after != null) {
      assertThat(c.granted().coversRange(start, after)).isTrue();
    }
  }

  @Provide
  Arbitrary<Case> cases() {
    return Combinators.combine(prefixes(), keys(), keys(), keys()).as(Case::new);
  }

  private static Arbitrary<List<String>> prefixes() {
    return Arbitraries.strings()
        .withChars('a', 'b', 'é', 'ÿ', '\u0000', '\u007f', '\uffff')
        .ofMaxLength(3)
        .list()
        .ofMaxSize(3);
  }

  private static Arbitrary<byte[]> keys() {
    // the bytes where signed and unsigned order differ, UTF-8 lead and continuation bytes, 0xFF
    return Arbitraries.of(
            (byte) 0,
            (byte) 'a',
            (byte) 'b',
            (byte) 0x7f,
            (byte) 0x80,
            (byte) 0xa9,
            (byte) 0xbf,
            (byte) 0xc3,
            (byte) 0xef,
            (byte) 0xff)
        .array(byte[].class)
        .ofMaxSize(5);
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] all = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, all, a.length, b.length);
    return all;
  }

  private static byte[] bytes(String text) {
    return text.getBytes(UTF_8);
  }
}
