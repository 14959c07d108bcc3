package dev.dht.node.replication;

import dev.dht.node.storage.Record;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.PoolOptions;
import java.util.HashMap;
import java.util.Map;

/**
 * Calls other nodes' replicas over keep-alive HTTP/1.1 pools, batching per peer. One instance per
 * event loop, so answers arrive on the loop that asked. A failed future means the hop failed
 * (refused, timed out, or an unexpected answer).
 */
public final class PeerClient {
  private final HttpClientAgent client;
  private final Context loop;
  private final String secret;
  private final long hopTimeoutMs;
  private final Map<String, PeerChannel> channels = new HashMap<>(); // this loop only

  public PeerClient(Vertx vertx, Context loop, String secret, long hopTimeoutMs, int poolSize) {
    this.loop = loop;
    this.secret = secret;
    this.hopTimeoutMs = hopTimeoutMs;
    this.client =
        vertx.createHttpClient(
            new HttpClientOptions()
                .setKeepAlive(true)
                .setTcpNoDelay(true)
                .setConnectTimeout((int) Math.min(hopTimeoutMs, Integer.MAX_VALUE)),
            new PoolOptions().setHttp1MaxSize(poolSize));
  }

  /** Sends {@code op} to {@code member}'s replica; completes with its record (reads) or null. */
  public Future<Record> apply(String member, ReplicaOp op) {
    return channels
        .computeIfAbsent(member, m -> new PeerChannel(client, loop, m, secret, hopTimeoutMs))
        .submit(op);
  }

  public Future<Void> close() {
    return client.close();
  }
}
