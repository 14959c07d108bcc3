package dev.dht.node.http;

import dev.dht.node.auth.ClientUser;
import dev.dht.node.replication.LocalReplica;
import dev.dht.node.storage.RangeCursor;
import dev.dht.node.storage.Record;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code GET /v0/entities?start=S[&end=E]}: this node's own live entries with S ≤ key < E, as one
 * chunk per entry ({@code key \n value}). Batches are read on the storage pool and written only
 * while the connection keeps up, so memory stays bounded whatever the size of the range.
 */
final class RangeHandler {
  private static final int BATCH_ENTRIES = 256;
  private static final int BATCH_BYTES = 1 << 20;

  private final LocalReplica local;
  private final Admission admission;
  private final Limits limits;
  private final ClientGate gate;

  RangeHandler(LocalReplica local, Admission admission, Limits limits, ClientGate gate) {
    this.local = local;
    this.admission = admission;
    this.limits = limits;
    this.gate = gate;
  }

  /** A request of {@code user}, admitted by the {@link ClientGate} already. */
  void handle(HttpServerRequest request, ClientUser user) {
    if (request.method() != HttpMethod.GET) {
      request.response().putHeader(HttpHeaders.ALLOW, "GET");
      Responses.text(request, 405, "method " + request.method() + " is not allowed here");
      return;
    }
    Query query = new Query(request.query());
    byte[] start = query.bytes("start");
    byte[] end = query.bytes("end");
    String invalid = KeyRules.check(start, limits.maxKeyBytes(), "start");
    if (invalid == null && end != null) {
      invalid = KeyRules.check(end, limits.maxKeyBytes(), "end");
    }
    if (invalid != null) {
      Responses.text(request, 400, invalid);
      return;
    }
    if (!gate.allowsRange(request, user, start, end)) {
      return;
    }
    if (!local.data().servesReads()) {
      // a range is this node's own data: while it bootstraps, part of it is missing
      Responses.text(request, 503, "this node is bootstrapping: its data is not complete yet");
      return;
    }
    if (!admission.tryAcquire()) {
      Responses.overloaded(request);
      return;
    }
    local
        .pool()
        .executeBlocking(() -> local.storage().range(start, end), false)
        .onSuccess(cursor ->
            ChunkedStream.start(
                request.response(), local.pool(), entries(cursor), admission::release))
        .onFailure(e -> {
          admission.release();
          Failures.answer(request, e);
        });
  }

  /** The range as chunks: one per entry, {@code key \n value}. */
  private static ChunkedStream.Source entries(RangeCursor cursor) {
    return new ChunkedStream.Source() {
      @Override
      public List<Buffer> next() {
        List<RangeCursor.Entry> entries = cursor.next(BATCH_ENTRIES, BATCH_BYTES);
        List<Buffer> chunks = new ArrayList<>(entries.size());
        for (RangeCursor.Entry entry : entries) {
          int valueLength = entry.value().length - Record.HEADER_BYTES;
          Buffer chunk = Buffer.buffer(entry.key().length + 1 + valueLength);
          chunk.appendBytes(entry.key()).appendByte((byte) '\n');
          chunk.appendBytes(entry.value(), Record.HEADER_BYTES, valueLength);
          chunks.add(chunk);
        }
        return chunks;
      }

      @Override
      public void close() {
        cursor.close();
      }
    };
  }
}
