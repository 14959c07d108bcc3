package dev.dht.node.replication;

import io.vertx.core.Future;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The way to one peer: {@link PeerFrames} when it speaks them, else HTTP batches, so that nodes of
 * two versions run side by side during a rolling upgrade. A peer that refuses the upgrade gets the
 * same batch again over HTTP at once (nothing fails for it), then HTTP batches for a minute, after
 * which the upgrade is tried again. Used from its event loop only.
 */
final class PeerLinks implements BatchLink {
  static final long HTTP_FOR_NANOS = TimeUnit.MINUTES.toNanos(1);

  private final FramedLink framed; // null: this node sends HTTP batches only
  private final HttpBatchLink http;

  PeerLinks(FramedLink framed, HttpBatchLink http) {
    this.framed = framed;
    this.http = http;
  }

  @Override
  public Future<List<BatchCodec.Result>> send(
      List<ReplicaOp> ops, long remainingMs, long maxAnswerBytes) {
    if (framed == null || framed.refusedWithin(HTTP_FOR_NANOS)) {
      return http.send(ops, remainingMs, maxAnswerBytes);
    }
    long start = System.nanoTime();
    return framed
        .send(ops, remainingMs, maxAnswerBytes)
        .recover(e -> {
          if (!(e instanceof FramedLink.UpgradeRefusedException)) {
            return Future.failedFuture(e);
          }
          long left = remainingMs - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
          return left <= 0
              ? Future.failedFuture("the deadline passed during the upgrade")
              : http.send(ops, left, maxAnswerBytes);
        });
  }

  void close() {
    if (framed != null) {
      framed.close();
    }
  }
}
