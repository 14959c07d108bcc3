package dev.dht.node.replication;

import dev.dht.node.storage.Record;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import java.net.URI;
import java.util.HashMap;
import java.util.Map;

/**
 * Calls the internal API of other nodes over keep-alive HTTP/1.1 pools. One instance per event
 * loop, so answers arrive on the loop that asked. A failed future means the hop failed (refused,
 * timed out, or an unexpected status).
 */
public final class PeerClient {
  private final HttpClientAgent client;
  private final String secret;
  private final long hopTimeoutMs;
  private final Map<String, URI> endpoints = new HashMap<>(); // touched by one event loop only

  public PeerClient(Vertx vertx, String secret, long hopTimeoutMs, int connectionsPerPeer) {
    this.secret = secret;
    this.hopTimeoutMs = hopTimeoutMs;
    this.client =
        vertx.createHttpClient(
            new HttpClientOptions()
                .setKeepAlive(true)
                .setTcpNoDelay(true)
                .setConnectTimeout((int) Math.min(hopTimeoutMs, Integer.MAX_VALUE)),
            new PoolOptions().setHttp1MaxSize(connectionsPerPeer).setMaxWaitQueueSize(-1));
  }

  /** The peer's record for {@code key}; null when it has none. */
  public Future<Record> get(String member, String key) {
    return send(member, HttpMethod.GET, key, null)
        .compose(response ->
            switch (response.statusCode()) {
              case 200 -> response.body().map(body -> Record.decode(body.getBytes()));
              case 404 -> Future.succeededFuture();
              default -> unexpected(response);
            });
  }

  /** Sends a record (value or tombstone) to the peer's replica; completes with null. */
  public Future<Record> write(String member, String key, Record record) {
    return send(member, HttpMethod.PUT, key, Buffer.buffer(record.encoded()))
        .compose(response ->
            response.statusCode() == 201 ? Future.<Record>succeededFuture() : unexpected(response));
  }

  public Future<Void> close() {
    return client.close();
  }

  private Future<HttpClientResponse> send(
      String member, HttpMethod method, String key, Buffer body) {
    URI uri = endpoints.computeIfAbsent(member, URI::create);
    RequestOptions options =
        new RequestOptions()
            .setMethod(method)
            .setHost(uri.getHost())
            .setPort(uri.getPort())
            .setURI(InternalApi.entryUri(key))
            .setIdleTimeout(hopTimeoutMs);
    if (secret != null) {
      options.putHeader(InternalApi.SECRET_HEADER, secret);
    }
    return client
        .request(options)
        .compose(request -> body == null ? request.send() : request.send(body));
  }

  private static <T> Future<T> unexpected(HttpClientResponse response) {
    return response
        .body()
        .transform(body ->
            Future.failedFuture(
                "replica answered " + response.statusCode() + ": " + body.result()));
  }
}
