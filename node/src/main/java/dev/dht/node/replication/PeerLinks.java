package dev.dht.node.replication;

import dev.dht.node.metrics.NodeMetrics;
import io.vertx.core.Future;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The way to one peer: {@link PeerFrames} when it speaks them, else HTTP batches, so that nodes of
 * two versions run side by side during a rolling upgrade. A peer that refuses the upgrade gets the
 * same batch again over HTTP at once (nothing fails for it), then HTTP batches for a minute, after
 * which the upgrade is tried again. Used from its event loop only.
 */
final class PeerLinks implements BatchLink {
  private static final Logger log = LoggerFactory.getLogger(PeerLinks.class);
  private static final long HTTP_FOR_NANOS = TimeUnit.MINUTES.toNanos(1);

  private final FramedLink framed; // null: this node sends HTTP batches only
  private final HttpBatchLink http;
  private final NodeMetrics metrics;
  private boolean upgradeRefused;
  private long refusedAtNanos;

  PeerLinks(FramedLink framed, HttpBatchLink http, NodeMetrics metrics) {
    this.framed = framed;
    this.http = http;
    this.metrics = metrics;
  }

  @Override
  public Future<List<BatchCodec.Result>> send(
      List<ReplicaOp> ops, long remainingMs, long maxAnswerBytes) {
    long start = System.nanoTime();
    if (framed == null || (upgradeRefused && start - refusedAtNanos < HTTP_FOR_NANOS)) {
      metrics.peerBatch(false);
      return http.send(ops, remainingMs, maxAnswerBytes);
    }
    metrics.peerBatch(true);
    return framed
        .send(ops, remainingMs, maxAnswerBytes)
        .recover(e -> {
          if (!(e instanceof FramedLink.UpgradeRefusedException)) {
            return Future.failedFuture(e);
          }
          if (!upgradeRefused || System.nanoTime() - refusedAtNanos >= HTTP_FOR_NANOS) {
            log.info("{}; sending it HTTP batches for a minute", e.getMessage());
          }
          upgradeRefused = true;
          refusedAtNanos = System.nanoTime();
          long left = remainingMs - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
          if (left <= 0) {
            return Future.failedFuture("the deadline passed during the upgrade");
          }
          metrics.peerBatch(false);
          return http.send(ops, left, maxAnswerBytes);
        });
  }

  void close() {
    if (framed != null) {
      framed.close();
    }
  }
}
