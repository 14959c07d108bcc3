package dev.dht.operator.loadtest.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Base64;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class EncodedHistogramTest {
  private static final long DAY_MICROS = TimeUnit.DAYS.toMicros(1);

  /** As the load generator sends it (its JsonSummary.encode). */
  private static String encode(Histogram h) {
    var buffer = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
    int length = h.encodeIntoCompressedByteBuffer(buffer);
    return Base64.getEncoder().encodeToString(Arrays.copyOf(buffer.array(), length));
  }

  @Test
  void theGeneratorsHistogramsAreRead() {
    var fixed = new Histogram(1, DAY_MICROS, 3); // its recorders' range
    fixed.recordValue(1_234);
    fixed.recordValue(DAY_MICROS);
    var resizing = new Histogram(3); // its progress so far, auto-resizing
    resizing.recordValue(DAY_MICROS);
    for (var h : new Histogram[] {fixed, resizing}) {
      var read = EncodedHistogram.decode(encode(h));
      assertThat(read.getTotalCount()).isEqualTo(h.getTotalCount());
      assertThat(read.getMaxValue()).isEqualTo(h.getMaxValue());
    }
  }

  /** A header that would size a 50 MB counts array from a few dozen bytes is refused unread. */
  @Test
  void moreSignificantDigitsThanTheGeneratorUsesAreRefused() {
    var fine = new Histogram(1, Long.MAX_VALUE / 2, 5);
    assertThatThrownBy(() -> EncodedHistogram.decode(encode(fine)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("5 significant digits: at most 3 are read");
  }

  @Test
  void aRangeBeyondTheBoundIsRefused() {
    var wide = new Histogram(1, Long.MAX_VALUE / 2, 3);
    assertThatThrownBy(() -> EncodedHistogram.decode(encode(wide)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("range 1..")
        .hasMessageEndingWith("only ranges within 1..1099511627776 are read");
  }

  @Test
  void garbageIsRefusedWithAReason() {
    assertThatThrownBy(() -> EncodedHistogram.decode("not base64!"))
        .hasMessageStartingWith("not base64");
    assertThatThrownBy(() -> EncodedHistogram.decode("AAAA"))
        .hasMessage("too short for a histogram");
    byte[] lying = Base64.getDecoder().decode(encode(new Histogram(3)));
    ByteBuffer.wrap(lying).putInt(4, Integer.MAX_VALUE); // a compressed length past the end
    assertThatThrownBy(() -> EncodedHistogram.decode(Base64.getEncoder().encodeToString(lying)))
        .hasMessageContaining("is not what follows");
  }

  /**
   * The caps on /progress and /result hold the worst histogram the generator can send: every bucket
   * of its range counted, each count large (the longest varints).
   */
  @Test
  void theWorstHistogramAGeneratorSendsFitsTheBodyCaps() {
    var worst = new Histogram(1, DAY_MICROS, 3);
    for (var value = 1L; value <= DAY_MICROS; value = worst.nextNonEquivalentValue(value)) {
      worst.recordValueWithCount(value, Long.MAX_VALUE / 1_000_000);
    }
    int encoded = encode(worst).length();
    assertThat(encoded).isLessThan(400 * 1024);
    assertThat(GeneratorPods.RESULT.maxBytes()).isGreaterThan(2L * encoded);
    assertThat(GeneratorPods.PROGRESS.maxBytes()).isGreaterThan(2L * encoded);
    assertThat(EncodedHistogram.decode(encode(worst)).getTotalCount())
        .isEqualTo(worst.getTotalCount());
  }
}
