package dev.dht.node.repair;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dht.node.fuzz.ByteMutations;
import dev.dht.node.replication.BatchCodec;
import dev.dht.node.replication.ReplicaOp;
import dev.dht.node.storage.Record;
import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;
import org.junit.jupiter.api.Test;

class RepairFramesTest {
  private static final int MAX_KEY = 32;
  private static final int MAX_RECORD = 64;

  @Property
  void framesOfRandomBytesDecodeConsistentlyOrAreMalformed(@ForAll("randomBytes") byte[] body) {
    check(body);
  }

  @Property
  void damagedFramesDecodeConsistentlyOrAreMalformed(@ForAll("damagedFrames") byte[] body) {
    check(body);
  }

  private static void check(byte[] body) {
    List<ReplicaOp> ops;
    try {
      ops = RepairFrames.decode(Buffer.buffer(body), MAX_KEY, MAX_RECORD);
    } catch (RuntimeException e) {
      assertThat(e).isExactlyInstanceOf(BatchCodec.MalformedException.class);
      Statistics.label("outcome").collect("malformed");
      return;
    }
    Statistics.label("outcome").collect("decoded");
    assertThat(ops).isNotEmpty().allMatch(ReplicaOp::isWrite);
    assertThat(RepairFrames.encode(ops).getBytes(4, 4 + body.length)).isEqualTo(body);
  }

  @Test
  void aFrameRoundTripsWithItsLength() {
    List<ReplicaOp> ops =
        List.of(write("a", Record.value(3, utf8("x"))), write("b", Record.tombstone(4)));
    Buffer frame = RepairFrames.encode(ops);
    int length = RepairFrames.checkLength(frame.getInt(0));
    assertThat(length).isEqualTo(frame.length() - 4);
    List<ReplicaOp> decoded = RepairFrames.decode(frame.slice(4, 4 + length), MAX_KEY, MAX_RECORD);
    assertThat(decoded).hasSize(2);
    assertThat(decoded.get(1).record().tombstone()).isTrue();
  }

  @Test
  void aFrameLengthOutsideOneToTheLimitIsRefused() {
    for (int length : new int[] {0, -1, Integer.MIN_VALUE, RepairApi.MAX_FRAME_BYTES + 1}) {
      assertThatThrownBy(() -> RepairFrames.checkLength(length))
          .isExactlyInstanceOf(BatchCodec.MalformedException.class)
          .hasMessageStartingWith("a repair frame of " + length + " bytes");
    }
    assertThat(RepairFrames.checkLength(RepairApi.MAX_FRAME_BYTES))
        .isEqualTo(RepairApi.MAX_FRAME_BYTES);
  }

  /** A read in a frame used to reach the apply as a write without a record (a null pointer). */
  @Test
  void aReadInAFrameIsRefused() {
    Buffer body =
        BatchCodec.encodeOps(List.of(write("a", Record.tombstone(1)), ReplicaOp.read(utf8("b"))));
    assertThatThrownBy(() -> RepairFrames.decode(body, MAX_KEY, MAX_RECORD))
        .isExactlyInstanceOf(BatchCodec.MalformedException.class)
        .hasMessage("op 1 of a repair frame is a read: a frame carries writes only");
  }

  @Test
  void anEmptyFrameOrAnEmptyKeyIsRefused() {
    assertThatThrownBy(() -> RepairFrames.decode(Buffer.buffer(), MAX_KEY, MAX_RECORD))
        .isExactlyInstanceOf(BatchCodec.MalformedException.class)
        .hasMessage("an empty repair frame");
    Buffer emptyKey = BatchCodec.encodeOps(List.of(write("", Record.tombstone(1))));
    assertThatThrownBy(() -> RepairFrames.decode(emptyKey, MAX_KEY, MAX_RECORD))
        .isExactlyInstanceOf(BatchCodec.MalformedException.class)
        .hasMessage("key of 0 bytes at byte 1: at least 1 expected");
  }

  @Test
  void aFrameOfMoreOpsThanTheLimitIsRefused() {
    List<ReplicaOp> ops =
        new ArrayList<>(Collections.nCopies(RepairFrames.MAX_OPS, write("k", Record.tombstone(1))));
    Buffer most = BatchCodec.encodeOps(ops);
    assertThat(RepairFrames.decode(most, MAX_KEY, MAX_RECORD)).hasSize(RepairFrames.MAX_OPS);
    ops.add(write("k", Record.tombstone(1)));
    Buffer tooMany = BatchCodec.encodeOps(ops);
    assertThat(tooMany.length()).isLessThan(RepairApi.MAX_FRAME_BYTES); // within the byte limit
    assertThatThrownBy(() -> RepairFrames.decode(tooMany, MAX_KEY, MAX_RECORD))
        .isExactlyInstanceOf(BatchCodec.MalformedException.class)
        .hasMessageStartingWith("more than " + RepairFrames.MAX_OPS + " ops");
  }

  /**
   * {@link RepairScans.EntryScan} fills a frame until it counts {@link RepairApi#FRAME_BYTES} (key,
   * record and 9 more an op: at least 18), then adds at most the rest of one scan batch. A receiver
   * takes twice the most it can pack, so a sender that packs somewhat more is still understood.
   */
  @Test
  void aReceiverTakesTwiceTheOpsASenderPacks() {
    int leastCountedBytesAnOp = Record.HEADER_BYTES + 9; // an empty key, a tombstone
    int mostPacked = RepairApi.FRAME_BYTES / leastCountedBytesAnOp + 1 + RepairScans.SCAN_BATCH;
    assertThat(RepairFrames.MAX_OPS).isGreaterThanOrEqualTo(2 * mostPacked);
  }

  @Provide
  Arbitrary<byte[]> randomBytes() {
    return ByteMutations.random();
  }

  @Provide
  Arbitrary<byte[]> damagedFrames() {
    Arbitrary<byte[]> key =
        Arbitraries.bytes()
            .filter(b -> b != '\n')
            .array(byte[].class)
            .ofMinSize(1)
            .ofMaxSize(MAX_KEY);
    Arbitrary<byte[]> value =
        Arbitraries.bytes().array(byte[].class).ofMaxSize(MAX_RECORD - Record.HEADER_BYTES);
    Arbitrary<Record> record =
        Arbitraries.oneOf(
            Combinators.combine(Arbitraries.longs(), value).as(Record::value),
            Arbitraries.longs().map(Record::tombstone));
    Arbitrary<ReplicaOp> op =
        Arbitraries.frequencyOf(
            net.jqwik.api.Tuple.of(9, Combinators.combine(key, record).as(ReplicaOp::write)),
            net.jqwik.api.Tuple.of(1, key.map(ReplicaOp::read)));
    return ByteMutations.of(
        op.list().ofMinSize(1).ofMaxSize(6).map(ops -> BatchCodec.encodeOps(ops).getBytes()));
  }

  private static ReplicaOp write(String key, Record record) {
    return ReplicaOp.write(utf8(key), record);
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
