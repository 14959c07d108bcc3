package dev.dht.node.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Positive;
import org.junit.jupiter.api.Test;

class RecordTest {
  @Property
  void valueRoundTrips(@ForAll @Positive long timestamp, @ForAll byte[] value) {
    Record decoded = Record.decode(Record.value(timestamp, value).encoded());
    assertThat(decoded.timestamp()).isEqualTo(timestamp);
    assertThat(decoded.tombstone()).isFalse();
    assertThat(decoded.valueBytes()).containsExactly(value);
  }

  @Test
  void tombstoneRoundTripsWithNoValue() {
    Record decoded = Record.decode(Record.tombstone(77).encoded());
    assertThat(decoded.tombstone()).isTrue();
    assertThat(decoded.timestamp()).isEqualTo(77);
    assertThat(decoded.valueLength()).isZero();
  }

  @Test
  void emptyValueIsNotATombstone() {
    Record decoded = Record.decode(Record.value(5, new byte[0]).encoded());
    assertThat(decoded.tombstone()).isFalse();
    assertThat(decoded.valueLength()).isZero();
  }

  @Test
  void newerThanComparesTimestampsAndBeatsAbsence() {
    assertThat(Record.value(2, new byte[0]).newerThan(Record.tombstone(1))).isTrue();
    assertThat(Record.tombstone(1).newerThan(Record.value(2, new byte[0]))).isFalse();
    assertThat(Record.tombstone(1).newerThan(null)).isTrue();
  }

  @Test
  void equalTimestampsPickTheSameWinnerWhateverTheOrder() {
    Record a = Record.value(9, new byte[] {1});
    Record b = Record.value(9, new byte[] {2});
    assertThat(a.newerThan(b)).isNotEqualTo(b.newerThan(a));
    assertThat(a.newerThan(a)).isFalse();
  }

  @Test
  void truncatedRecordsAreRejected() {
    assertThatThrownBy(() -> Record.decode(new byte[3]))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
