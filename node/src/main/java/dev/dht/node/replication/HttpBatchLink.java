package dev.dht.node.replication;

import dev.dht.node.cluster.ClockOffsets;
import dev.dht.node.metrics.NodeMetrics;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import java.util.List;

/**
 * A batch as one {@code POST} {@link InternalApi#BATCH_PATH} over the keep-alive pool: what every
 * node understands, used for peers that do not speak {@link PeerFrames} (or when this node is told
 * not to). Answers are size-checked before they are read.
 */
final class HttpBatchLink implements BatchLink {
  /** An error answer's reason is read only up to this size. */
  private static final int MAX_ERROR_BYTES = 4096;

  private final HttpClientAgent client;
  private final String member;
  private final PeerTransport transport;
  private final ClockOffsets offsets;
  private final NodeMetrics metrics;

  HttpBatchLink(
      HttpClientAgent client,
      String member,
      PeerTransport transport,
      ClockOffsets offsets,
      NodeMetrics metrics) {
    this.metrics = metrics;
    this.client = client;
    this.member = member;
    this.transport = transport;
    this.offsets = offsets;
  }

  @Override
  public Future<List<BatchCodec.Result>> send(
      List<ReplicaOp> ops, long remainingMs, long maxAnswerBytes) {
    Buffer body = BatchCodec.encodeOps(ops);
    RequestOptions options =
        transport
            .request(member, HttpMethod.POST, InternalApi.BATCH_PATH)
            .setConnectTimeout(remainingMs) // also bounds the wait for a pooled connection
            .setIdleTimeout(remainingMs)
            .putHeader(InternalApi.DEADLINE_HEADER, Long.toString(remainingMs));
    long sentNanos = System.nanoTime();
    metrics.peerBatch(false);
    return client
        .request(options)
        .compose(req -> req.send(body))
        .compose(response -> {
          ClockSample.take(offsets, member, response, sentNanos);
          return answer(response, maxAnswerBytes);
        })
        .map(answer -> BatchCodec.decodeResults(answer, ops.size()));
  }

  /** The answer's body if it is a 200 of a plausible size; a failure with the reason otherwise. */
  private static Future<Buffer> answer(HttpClientResponse response, long maxBytes) {
    long length = contentLength(response);
    if (response.statusCode() != 200) {
      Future<String> reason =
          length >= 0 && length <= MAX_ERROR_BYTES
              ? response.body().map(Buffer::toString)
              : Future.succeededFuture("(no readable reason)");
      return reason.transform(text ->
          Future.failedFuture(
              "peer answered " + response.statusCode() + ": " + text.result().strip()));
    }
    if (length < 0 || length > maxBytes) {
      response.request().connection().close();
      return Future.failedFuture(
          "peer answered with a body of "
              + (length < 0 ? "unknown length" : length + " bytes")
              + ", more than the "
              + maxBytes
              + " bytes its ops can need");
    }
    return response.body();
  }

  private static long contentLength(HttpClientResponse response) {
    String value = response.getHeader(HttpHeaders.CONTENT_LENGTH);
    try {
      return value == null ? -1 : Long.parseLong(value);
    } catch (NumberFormatException e) {
      return -1;
    }
  }
}
