package dev.dht.node.replication;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.node.fuzz.ByteMutations;
import dev.dht.node.storage.Record;
import io.vertx.core.buffer.Buffer;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.statistics.Statistics;

/**
 * Whatever a peer sends, a decoder either returns what re-encodes to exactly the bytes it got,
 * within every bound, or throws {@link BatchCodec.MalformedException}: never another exception, an
 * allocation of a length it was told, or a loop that does not end.
 */
class BatchCodecPropertiesTest {
  private static final int MAX_KEY = 32;
  private static final int MAX_RECORD = 64;
  private static final int MAX_OPS = 8;
  private static final BatchCodec.OpBounds BOUNDS =
      new BatchCodec.OpBounds(MAX_OPS, MAX_KEY, MAX_RECORD);

  @Property
  void opsOfRandomBytesDecodeConsistentlyOrAreMalformed(@ForAll("randomBytes") byte[] bytes) {
    checkOps(bytes);
  }

  @Property
  void damagedBatchesDecodeConsistentlyOrAreMalformed(@ForAll("damagedBatches") byte[] bytes) {
    checkOps(bytes);
  }

  @Property
  void resultsOfRandomBytesDecodeConsistentlyOrAreMalformed(
      @ForAll("randomBytes") byte[] bytes, @ForAll @IntRange(max = 10) int expected) {
    checkResults(bytes, expected);
  }

  @Property
  void damagedResultsDecodeConsistentlyOrAreMalformed(@ForAll("damagedResults") Answer answer) {
    checkResults(answer.bytes(), answer.expected());
  }

  private static void checkOps(byte[] bytes) {
    List<ReplicaOp> ops;
    try {
      ops = BatchCodec.decodeOps(Buffer.buffer(bytes), BOUNDS);
    } catch (RuntimeException e) {
      assertThat(e).isExactlyInstanceOf(BatchCodec.MalformedException.class);
      Statistics.label("outcome").collect("malformed");
      return;
    }
    Statistics.label("outcome").collect("decoded");
    assertThat(ops).hasSizeLessThanOrEqualTo(MAX_OPS);
    for (ReplicaOp op : ops) {
      assertThat(op.key()).isNotEmpty().hasSizeLessThanOrEqualTo(MAX_KEY).doesNotContain('\n');
      if (op.isWrite()) {
        assertThat(op.record().encoded().length).isBetween(Record.HEADER_BYTES, MAX_RECORD);
      }
    }
    assertThat(BatchCodec.encodeOps(ops, true).getBytes()).isEqualTo(bytes);
  }

  private static void checkResults(byte[] bytes, int expected) {
    List<BatchCodec.Result> results;
    try {
      results = BatchCodec.decodeResults(Buffer.buffer(bytes), expected);
    } catch (RuntimeException e) {
      assertThat(e).isExactlyInstanceOf(BatchCodec.MalformedException.class);
      Statistics.label("outcome").collect("malformed");
      return;
    }
    Statistics.label("outcome").collect("decoded");
    assertThat(results).hasSize(expected);
    assertThat(BatchCodec.encodeResults(results).getBytes()).isEqualTo(bytes);
  }

  record Answer(byte[] bytes, int expected) {}

  @Provide
  Arbitrary<byte[]> randomBytes() {
    return ByteMutations.random();
  }

  @Provide
  Arbitrary<byte[]> damagedBatches() {
    return ByteMutations.of(
        op().list().ofMaxSize(MAX_OPS).map(ops -> BatchCodec.encodeOps(ops, true).getBytes()));
  }

  @Provide
  Arbitrary<Answer> damagedResults() {
    return result()
        .list()
        .ofMaxSize(10)
        .flatMap(results ->
            ByteMutations.of(Arbitraries.just(BatchCodec.encodeResults(results).getBytes()))
                .map(bytes -> new Answer(bytes, results.size())));
  }

  private static Arbitrary<ReplicaOp> op() {
    Arbitrary<byte[]> key =
        Arbitraries.bytes()
            .filter(b -> b != '\n')
            .array(byte[].class)
            .ofMinSize(1)
            .ofMaxSize(MAX_KEY);
    return Arbitraries.oneOf(
        key.map(ReplicaOp::read),
        key.map(ReplicaOp::digest),
        net.jqwik.api.Combinators.combine(key, record()).as(ReplicaOp::write));
  }

  private static Arbitrary<BatchCodec.Result> result() {
    return Arbitraries.oneOf(
        Arbitraries.of(BatchCodec.Result.ABSENT, BatchCodec.Result.FAILURE),
        record().map(r -> new BatchCodec.Result(r, false)));
  }

  private static Arbitrary<Record> record() {
    Arbitrary<byte[]> value =
        Arbitraries.bytes().array(byte[].class).ofMaxSize(MAX_RECORD - Record.HEADER_BYTES);
    Arbitrary<Long> timestamp = Arbitraries.longs();
    return Arbitraries.oneOf(
        net.jqwik.api.Combinators.combine(timestamp, value).as(Record::value),
        timestamp.map(Record::tombstone));
  }
}
