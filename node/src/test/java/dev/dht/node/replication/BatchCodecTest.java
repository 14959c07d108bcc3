package dev.dht.node.replication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dht.node.storage.Record;
import io.vertx.core.buffer.Buffer;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;

class BatchCodecTest {
  private static final int MAX_KEY = 1024;
  private static final int MAX_RECORD = 100;

  @Property
  void opsRoundTrip(@ForAll @Size(max = 20) List<@Size(min = 1, max = 40) byte[]> keys) {
    List<ReplicaOp> ops = new ArrayList<>();
    for (int i = 0; i < keys.size(); i++) {
      byte[] key = keys.get(i).clone();
      for (int b = 0; b < key.length; b++) {
        key[b] = key[b] == '\n' ? 0 : key[b]; // no client key holds a newline
      }
      ops.add(
          switch (i % 3) {
            case 0 -> ReplicaOp.read(key);
            case 1 -> ReplicaOp.write(key, Record.value(i, key));
            default -> ReplicaOp.write(key, Record.tombstone(i));
          });
    }
    List<ReplicaOp> decoded = BatchCodec.decodeOps(BatchCodec.encodeOps(ops), 1024, 1 << 20);
    assertThat(decoded).hasSameSizeAs(ops);
    for (int i = 0; i < ops.size(); i++) {
      assertThat(decoded.get(i).key()).containsExactly(ops.get(i).key());
      assertThat(decoded.get(i).isWrite()).isEqualTo(ops.get(i).isWrite());
      if (ops.get(i).isWrite()) {
        assertThat(decoded.get(i).record().encoded())
            .containsExactly(ops.get(i).record().encoded());
      }
    }
  }

  @Test
  void resultsRoundTripInOrder() {
    List<BatchCodec.Result> results =
        List.of(
            BatchCodec.Result.ABSENT,
            new BatchCodec.Result(Record.value(9, new byte[] {1, 2}), false),
            BatchCodec.Result.FAILURE,
            new BatchCodec.Result(Record.tombstone(3), false));
    List<BatchCodec.Result> decoded =
        BatchCodec.decodeResults(BatchCodec.encodeResults(results), 4);
    assertThat(decoded.get(0)).isEqualTo(BatchCodec.Result.ABSENT);
    assertThat(decoded.get(1).record().valueBytes()).containsExactly(1, 2);
    assertThat(decoded.get(2).failed()).isTrue();
    assertThat(decoded.get(3).record().tombstone()).isTrue();
  }

  @Test
  void anOversizedKeyIsRefused() {
    Buffer body = Buffer.buffer().appendByte((byte) 0).appendInt(2000).appendBytes(new byte[2000]);
    assertMalformed(body).hasMessage("key of 2000 bytes at byte 1: more than the limit of 1024");
  }

  @Test
  void anEmptyKeyIsRefused() {
    Buffer read = Buffer.buffer().appendByte((byte) 0).appendInt(0);
    assertMalformed(read).hasMessage("key of 0 bytes at byte 1: at least 1 expected");
    Buffer write = BatchCodec.encodeOps(List.of(ReplicaOp.write(new byte[0], Record.tombstone(1))));
    assertMalformed(write).hasMessageContaining("key of 0 bytes");
  }

  @Test
  void aKeyWithANewlineIsRefused() {
    Buffer body = BatchCodec.encodeOps(List.of(ReplicaOp.read(utf8("a\nb"))));
    assertMalformed(body).hasMessage("key with a newline at byte 1");
  }

  @Test
  void aNegativeLengthIsRefused() {
    Buffer key = Buffer.buffer().appendByte((byte) 1).appendInt(-1).appendBytes(new byte[8]);
    assertMalformed(key).hasMessage("negative key length -1 at byte 1");
    Buffer record =
        Buffer.buffer()
            .appendByte((byte) 1)
            .appendInt(1)
            .appendByte((byte) 'k')
            .appendInt(Integer.MIN_VALUE);
    assertMalformed(record).hasMessage("negative record length -2147483648 at byte 6");
  }

  @Test
  void aRecordShorterThanItsHeaderOrOverTheLimitIsRefused() {
    Buffer shortRecord =
        Buffer.buffer()
            .appendByte((byte) 1)
            .appendInt(1)
            .appendByte((byte) 'k')
            .appendInt(3)
            .appendBytes(new byte[3]);
    assertMalformed(shortRecord).hasMessage("record of 3 bytes at byte 6: at least 9 expected");
    Buffer large =
        BatchCodec.encodeOps(
            List.of(ReplicaOp.write(utf8("k"), Record.value(1, new byte[MAX_RECORD]))));
    assertMalformed(large).hasMessage("record of 109 bytes at byte 6: more than the limit of 100");
  }

  /**
   * A length near 2^31 after a few bytes: {@code position + 4 + length} wraps to a negative int,
   * which passed the old bounds check and then failed in the buffer (or allocated that length).
   */
  @Test
  void aLengthThatWouldOverflowThePositionIsRefused() {
    Buffer answer = Buffer.buffer();
    for (int i = 0; i < 5; i++) {
      answer.appendByte((byte) 0); // absent
    }
    answer.appendByte((byte) 1).appendInt(Integer.MAX_VALUE - 8).appendBytes(new byte[16]);
    assertThatThrownBy(() -> BatchCodec.decodeResults(answer, 6))
        .isExactlyInstanceOf(BatchCodec.MalformedException.class)
        .hasMessage("truncated record at byte 6: 2147483639 bytes declared, 16 left");
    Buffer batch =
        Buffer.buffer()
            .appendBytes(BatchCodec.encodeOps(List.of(ReplicaOp.read(utf8("k")))).getBytes())
            .appendByte((byte) 0)
            .appendInt(Integer.MAX_VALUE);
    assertThatThrownBy(
            () -> BatchCodec.decodeOps(batch, new BatchCodec.OpBounds(4, Integer.MAX_VALUE, 9)))
        .isExactlyInstanceOf(BatchCodec.MalformedException.class)
        .hasMessage("truncated key at byte 7: 2147483647 bytes declared, 0 left");
  }

  @Test
  void aBatchOfMoreOpsThanTheLimitIsRefused() {
    List<ReplicaOp> most =
        Collections.nCopies(BatchCodec.MAX_OPS_PER_BATCH, ReplicaOp.read(utf8("k")));
    assertThat(BatchCodec.decodeOps(BatchCodec.encodeOps(most), MAX_KEY, MAX_RECORD))
        .hasSize(BatchCodec.MAX_OPS_PER_BATCH);
    List<ReplicaOp> tooMany = new ArrayList<>(most);
    tooMany.add(ReplicaOp.read(utf8("k")));
    assertMalformed(BatchCodec.encodeOps(tooMany))
        .hasMessage("more than 1024 ops: the op at byte 6144 is one too many");
  }

  /** Replicas must take every batch a coordinator sends, with room for a later one packing more. */
  @Test
  void aReplicaTakesFourTimesTheOpsACoordinatorPacks() throws ReflectiveOperationException {
    Field packed = PeerChannel.class.getDeclaredField("MAX_OPS_PER_BATCH");
    packed.setAccessible(true);
    assertThat(BatchCodec.MAX_OPS_PER_BATCH).isGreaterThanOrEqualTo(4 * packed.getInt(null));
  }

  @Test
  void aTruncatedBatchIsRefused() {
    byte[] whole =
        BatchCodec.encodeOps(List.of(ReplicaOp.write(utf8("key"), Record.value(5, utf8("value")))))
            .getBytes();
    assertMalformed(Buffer.buffer(whole).slice(0, 3))
        .hasMessage("truncated key length at byte 1: the body ends at 3");
    assertMalformed(Buffer.buffer(whole).slice(0, 10))
        .hasMessage("truncated record length at byte 8: the body ends at 10");
    assertMalformed(Buffer.buffer(whole).slice(0, whole.length - 1))
        .hasMessage("truncated record at byte 8: 14 bytes declared, 13 left");
  }

  @Test
  void anUnknownKindIsRefused() {
    assertMalformed(Buffer.buffer().appendByte((byte) 7)).hasMessage("unknown op kind 7 at byte 0");
    assertThatThrownBy(() -> BatchCodec.decodeResults(Buffer.buffer().appendByte((byte) 9), 1))
        .isExactlyInstanceOf(BatchCodec.MalformedException.class)
        .hasMessage("unknown result kind 9 at byte 0");
  }

  @Test
  void resultsMustMatchTheOpsInNumber() {
    Buffer one = BatchCodec.encodeResults(List.of(BatchCodec.Result.ABSENT));
    assertThatThrownBy(() -> BatchCodec.decodeResults(one, 2))
        .isExactlyInstanceOf(BatchCodec.MalformedException.class)
        .hasMessage("1 results for 2 ops");
    Buffer three = BatchCodec.encodeResults(Collections.nCopies(3, BatchCodec.Result.FAILURE));
    assertThatThrownBy(() -> BatchCodec.decodeResults(three, 2))
        .isExactlyInstanceOf(BatchCodec.MalformedException.class)
        .hasMessage("more results than the 2 ops, from byte 2");
  }

  private static AbstractThrowableAssert<?, ? extends Throwable> assertMalformed(Buffer body) {
    return assertThatThrownBy(() -> BatchCodec.decodeOps(body, MAX_KEY, MAX_RECORD))
        .isExactlyInstanceOf(BatchCodec.MalformedException.class);
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
