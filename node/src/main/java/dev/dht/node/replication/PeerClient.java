package dev.dht.node.replication;

import dev.dht.node.cluster.ClockOffsets;
import dev.dht.node.metrics.NodeMetrics;
import dev.dht.node.storage.Record;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.PoolOptions;
import java.util.HashMap;
import java.util.Map;

/**
 * Calls other nodes' replicas, batching per peer: over {@link PeerFrames} connections ({@code
 * PeerTransport#framed}) to peers that speak them, else over a keep-alive HTTP/1.1 pool. One
 * instance per event loop, so answers arrive on the loop that asked. A failed future means the hop
 * failed (refused, timed out, shed because the peer has too much queued, or an unexpected answer).
 */
public final class PeerClient {
  /** Batches waiting for a pooled connection, per peer; beyond, a batch fails at once. */
  private static final int MAX_WAITING_BATCHES = 64;

  private final HttpClientAgent client;
  private final Vertx vertx;
  private final Context loop;
  private final long connectTimeoutMs;
  private final ClockOffsets offsets;
  private final PeerLimits limits;
  private final NodeMetrics metrics;
  private final PeerTransport transport;
  private final Map<String, PeerChannel> channels = new HashMap<>(); // this loop only

  public PeerClient(
      Vertx vertx,
      Context loop,
      ClockOffsets offsets,
      long connectTimeoutMs,
      int poolSize,
      PeerLimits limits,
      NodeMetrics metrics,
      PeerTransport transport) {
    this.vertx = vertx;
    this.loop = loop;
    this.connectTimeoutMs = connectTimeoutMs;
    this.offsets = offsets;
    this.limits = limits;
    this.metrics = metrics;
    this.transport = transport;
    this.client =
        vertx.createHttpClient(
            transport
                .clientOptions()
                .setKeepAlive(true)
                .setTcpNoDelay(true)
                .setConnectTimeout((int) Math.min(connectTimeoutMs, Integer.MAX_VALUE)),
            new PoolOptions().setHttp1MaxSize(poolSize).setMaxWaitQueueSize(MAX_WAITING_BATCHES));
    transport.keepCurrent(loop, client);
  }

  /**
   * Sends {@code op} to {@code member}'s replica, to be done by {@code deadlineNanos} ({@link
   * System#nanoTime}); completes with its record (reads) or null.
   */
  public Future<Record> apply(String member, ReplicaOp op, long deadlineNanos) {
    return channels.computeIfAbsent(member, this::channel).submit(op, deadlineNanos);
  }

  private PeerChannel channel(String member) {
    FramedLink frames =
        transport.framed()
            ? new FramedLink(vertx, client, member, transport, offsets, connectTimeoutMs, metrics)
            : null;
    PeerLinks links =
        new PeerLinks(frames, new HttpBatchLink(client, member, transport, offsets, metrics));
    return new PeerChannel(links, loop, member, limits, metrics);
  }

  public Future<Void> close() {
    channels.values().forEach(PeerChannel::close);
    return client.close();
  }
}
