package dev.dht.node.replication;

import dev.dht.node.storage.Record;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;

/**
 * The ops one event loop has for one peer: collected during a loop turn, sent as one batch request.
 * Used from its event loop only.
 */
final class PeerChannel {
  private static final int MAX_OPS_PER_BATCH = 256;

  /** Keeps batches well under the replica's body limit (16 maximal values). */
  private static final int MAX_BYTES_PER_BATCH = 4 << 20;

  private record Pending(ReplicaOp op, Promise<Record> promise) {}

  private final HttpClientAgent client;
  private final Context loop;
  private final RequestOptions request;
  private List<Pending> pending = new ArrayList<>();

  PeerChannel(HttpClientAgent client, Context loop, String member, String secret, long timeoutMs) {
    this.client = client;
    this.loop = loop;
    URI uri = URI.create(member);
    this.request =
        new RequestOptions()
            .setMethod(HttpMethod.POST)
            .setHost(uri.getHost())
            .setPort(uri.getPort())
            .setURI(InternalApi.BATCH_PATH)
            .setIdleTimeout(timeoutMs);
    if (secret != null) {
      request.putHeader(InternalApi.SECRET_HEADER, secret);
    }
  }

  Future<Record> submit(ReplicaOp op) {
    Promise<Record> promise = Promise.promise();
    if (pending.isEmpty()) {
      loop.runOnContext(v -> flush());
    }
    pending.add(new Pending(op, promise));
    return promise.future();
  }

  private void flush() {
    List<Pending> all = pending;
    pending = new ArrayList<>();
    int first = 0;
    int bytes = 0;
    for (int i = 0; i < all.size(); i++) {
      ReplicaOp op = all.get(i).op();
      int size = op.key().length + (op.isWrite() ? op.record().encoded().length : 0);
      if (i > first && (i - first == MAX_OPS_PER_BATCH || bytes + size > MAX_BYTES_PER_BATCH)) {
        send(all.subList(first, i));
        first = i;
        bytes = 0;
      }
      bytes += size;
    }
    send(all.subList(first, all.size()));
  }

  private void send(List<Pending> batch) {
    List<ReplicaOp> ops = new ArrayList<>(batch.size());
    batch.forEach(p -> ops.add(p.op()));
    Buffer body = BatchCodec.encodeOps(ops);
    client
        .request(new RequestOptions(request))
        .compose(req -> req.send(body))
        .compose(response ->
            response.statusCode() == 200
                ? response.body()
                : response
                    .body()
                    .transform(b ->
                        Future.failedFuture(
                            "peer answered " + response.statusCode() + ": " + b.result())))
        .map(answer -> BatchCodec.decodeResults(answer, batch.size()))
        .onComplete(done -> {
          for (int i = 0; i < batch.size(); i++) {
            Promise<Record> promise = batch.get(i).promise();
            if (done.failed()) {
              promise.fail(done.cause());
            } else if (done.result().get(i).failed()) {
              promise.fail("the peer's storage failed");
            } else {
              promise.complete(done.result().get(i).record());
            }
          }
        });
  }
}
