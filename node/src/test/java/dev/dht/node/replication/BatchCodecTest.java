package dev.dht.node.replication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dht.node.storage.Record;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class BatchCodecTest {
  @Property
  void opsRoundTrip(@ForAll @Size(max = 20) List<@Size(max = 40) byte[]> keys) {
    List<ReplicaOp> ops = new ArrayList<>();
    for (int i = 0; i < keys.size(); i++) {
      byte[] key = keys.get(i);
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
  void rejectsMalformedBodies() {
    Buffer oversizedKey =
        Buffer.buffer().appendByte((byte) 0).appendInt(2000).appendBytes(new byte[2000]);
    assertThatThrownBy(() -> BatchCodec.decodeOps(oversizedKey, 1024, 100))
        .isInstanceOf(BatchCodec.MalformedException.class)
        .hasMessageContaining("key length");
    Buffer truncated =
        Buffer.buffer().appendByte((byte) 1).appendInt(3).appendBytes(new byte[] {1});
    assertThatThrownBy(() -> BatchCodec.decodeOps(truncated, 1024, 100))
        .isInstanceOf(BatchCodec.MalformedException.class);
    assertThatThrownBy(() -> BatchCodec.decodeOps(Buffer.buffer().appendByte((byte) 7), 1024, 100))
        .isInstanceOf(BatchCodec.MalformedException.class);
    assertThatThrownBy(() ->
            BatchCodec.decodeResults(
                BatchCodec.encodeResults(List.of(BatchCodec.Result.ABSENT)), 2))
        .isInstanceOf(BatchCodec.MalformedException.class);
  }
}
