package dev.dht.node.replication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dht.node.storage.Record;
import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/**
 * Frames survive any cutting of the stream into chunks, and a frame beyond what the reader expects
 * is refused from its header, before its payload is held.
 */
class PeerFramesTest {
  private static final PeerFrames.Bounds ANY = (kind, id) -> 1 << 20;

  private record Seen(byte kind, int id, byte[] payload) {}

  @Property
  void framesComeOutWholeHoweverTheStreamIsCut(
      @ForAll @Size(min = 1, max = 20) List<@IntRange(min = 0, max = 300) Integer> sizes,
      @ForAll @Size(min = 1, max = 40) List<@IntRange(min = 1, max = 97) Integer> cuts) {
    Buffer stream = Buffer.buffer();
    List<Seen> sent = new ArrayList<>();
    for (int i = 0; i < sizes.size(); i++) {
      byte[] reason = "x".repeat(sizes.get(i)).getBytes(StandardCharsets.UTF_8);
      Buffer frame = PeerFrames.refused(i * 7, 500 + i, new String(reason, StandardCharsets.UTF_8));
      stream.appendBuffer(frame);
      sent.add(
          new Seen(
              PeerFrames.REFUSED, i * 7, frame.getBytes(PeerFrames.HEADER_BYTES, frame.length())));
    }
    List<Seen> seen = new ArrayList<>();
    PeerFrames.Reader reader =
        new PeerFrames.Reader(
            ANY, f -> seen.add(new Seen(f.kind(), f.id(), f.payload().getBytes())));
    int at = 0;
    for (int i = 0; at < stream.length(); i++) {
      int end = Math.min(stream.length(), at + cuts.get(i % cuts.size()));
      reader.feed(stream.getBuffer(at, end));
      at = end;
    }
    assertThat(seen).hasSize(sent.size());
    for (int i = 0; i < sent.size(); i++) {
      assertThat(seen.get(i).kind()).isEqualTo(sent.get(i).kind());
      assertThat(seen.get(i).id()).isEqualTo(sent.get(i).id());
      assertThat(seen.get(i).payload()).isEqualTo(sent.get(i).payload());
    }
  }

  @Test
  void opsAndResultsRoundTrip() {
    Record record = Record.value(42, "v".getBytes(StandardCharsets.UTF_8));
    List<ReplicaOp> ops =
        List.of(ReplicaOp.read("a".getBytes()), ReplicaOp.write("b".getBytes(), record));
    List<PeerFrames.Frame> frames = new ArrayList<>();
    PeerFrames.Reader reader =
        new PeerFrames.Reader(
            ANY, f -> frames.add(new PeerFrames.Frame(f.kind(), f.id(), f.payload().copy())));
    reader.feed(PeerFrames.ops(3, 250, ops));
    reader.feed(
        PeerFrames.results(
            3, 1234, List.of(new BatchCodec.Result(record, false), BatchCodec.Result.FAILURE)));

    Buffer opsPayload = frames.get(0).payload();
    assertThat(frames.get(0).kind()).isEqualTo(PeerFrames.OPS);
    assertThat(opsPayload.getInt(0)).isEqualTo(250);
    List<ReplicaOp> decoded =
        BatchCodec.decodeOps(opsPayload.slice(4, opsPayload.length()), 100, 100);
    assertThat(decoded.get(0).key()).isEqualTo("a".getBytes());
    assertThat(decoded.get(1).record().timestamp()).isEqualTo(42);

    Buffer results = frames.get(1).payload();
    assertThat(frames.get(1).id()).isEqualTo(3);
    assertThat(results.getLong(0)).isEqualTo(1234);
    List<BatchCodec.Result> answers =
        BatchCodec.decodeResults(results.slice(8, results.length()), 2);
    assertThat(answers.get(0).record().timestamp()).isEqualTo(42);
    assertThat(answers.get(1).failed()).isTrue();
  }

  @Test
  void aFrameLargerThanExpectedIsRefusedFromItsHeader() {
    PeerFrames.Reader reader = new PeerFrames.Reader((kind, id) -> 10, f -> {});
    Buffer header = Buffer.buffer().appendInt(1 << 30).appendByte(PeerFrames.OPS).appendInt(1);
    assertThatThrownBy(() -> reader.feed(header))
        .isInstanceOf(BatchCodec.MalformedException.class)
        .hasMessageContaining("at most 10 expected");
  }

  @Test
  void anUnexpectedKindOrIdOrAShortLengthIsRefused() {
    PeerFrames.Reader unexpected = new PeerFrames.Reader((kind, id) -> -1, f -> {});
    assertThatThrownBy(() -> unexpected.feed(PeerFrames.refused(9, 503, "busy")))
        .isInstanceOf(BatchCodec.MalformedException.class)
        .hasMessageContaining("unexpected frame of kind 3, id 9");
    PeerFrames.Reader reader = new PeerFrames.Reader(ANY, f -> {});
    Buffer tooShort = Buffer.buffer().appendInt(2).appendByte(PeerFrames.OPS).appendInt(1);
    assertThatThrownBy(() -> reader.feed(tooShort))
        .isInstanceOf(BatchCodec.MalformedException.class);
  }

  @Test
  void aRefusalCarriesItsStatusAndAReasonOfBoundedSize() {
    Buffer frame = PeerFrames.refused(1, 503, "y".repeat(5000));
    Buffer payload = frame.slice(PeerFrames.HEADER_BYTES, frame.length());
    assertThat(PeerFrames.refusedStatus(payload)).isEqualTo(503);
    assertThat(PeerFrames.refusedReason(payload)).hasSize(PeerFrames.MAX_REASON_BYTES);
  }
}
